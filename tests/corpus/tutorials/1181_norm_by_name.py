# torch.norm with an order given by name: 'fro' is the vector 2-norm of the entries, 'nuc'
# the sum of the singular values (a low-rank penalty), over every dim unless told otherwise.
import torch

torch.manual_seed(7)
W = torch.randn(4, 3, requires_grad=True)

penalty = torch.norm(W, "nuc")
print("nuclear norm:", penalty)
penalty.backward()
print("its gradient (U @ V^T):")
print(W.grad)

batch = torch.randn(2, 3, 3)
print("per matrix:", torch.norm(batch, p="nuc", dim=(1, 2)))
print("kept dims:", batch.norm(p="nuc", dim=(1, 2), keepdim=True).shape)
print("same as svdvals:", torch.linalg.svdvals(batch).sum(-1))
print("frobenius:", torch.norm(batch, "fro"), torch.norm(batch, "fro", dim=(1, 2)))

for label, call in [
    ("unknown name", lambda: torch.norm(W, "max")),
    ("nuc of a vector", lambda: torch.norm(torch.ones(3), "nuc")),
    ("nuc of a 3-d tensor", lambda: torch.norm(batch, "nuc")),
    ("fro over three dims", lambda: torch.norm(batch, "fro", dim=(0, 1, 2))),
    ("matrix_norm order 3", lambda: torch.linalg.matrix_norm(W, 3)),
]:
    try:
        print(label, call())
    except RuntimeError as e:
        print(label, "->", e)
