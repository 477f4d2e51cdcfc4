# Matrix products a linear-algebra tutorial walks through: mm, mv, dot and
# a transposed matrix times a vector, with their gradients.
import torch

torch.manual_seed(3)
torch.set_printoptions(precision=8)

A = torch.randn(3, 7, requires_grad=True)
B = torch.randn(7, 5)
v = torch.randn(7)
u = torch.randn(3)

C = A @ B
print("A @ B =", C)
print("A.mv(v) =", torch.mv(A, v))
print("v.dot(v) =", torch.dot(v, v))
print("A.t() @ u =", A.t() @ u)
print("u @ A =", u @ A)

total = (C * C).sum() + torch.mv(A, v).sum()
total.backward()
print("dA =", A.grad)

# a wider product, the kind a batch of hidden activations makes
H = torch.randn(6, 20)
W = torch.randn(20, 16)
out = H @ W
print("row sums:", out.sum(dim=1))
print("first row:", out[0])
