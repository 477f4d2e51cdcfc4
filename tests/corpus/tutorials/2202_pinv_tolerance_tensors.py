# A truncated pseudo-inverse where the cut-off is computed from the data: linalg.pinv and
# linalg.matrix_rank take atol / rtol as tensors (a 0-dim one, or one tolerance per matrix
# of a batch), and the gradient flows through the kept singular directions.
import torch

torch.manual_seed(0)
A = torch.randn(6, 4, dtype=torch.float64)
G = A.T @ A  # symmetric positive semi-definite, 4 x 4
s = torch.linalg.svdvals(G)
print("singular values", s)

k = 2
rtol = (s[k] / s[0]).detach()  # keep the k largest directions
P = torch.linalg.pinv(G, rtol=rtol)
print("rank kept", torch.linalg.matrix_rank(G, rtol=rtol).item())
print("P @ G @ P == P:", torch.allclose(P @ G @ P, P))

# one absolute tolerance per matrix of a batch
batch = torch.stack([G, 10 * G, 0.1 * G])
tols = torch.tensor([1.0, 100.0, 0.01], dtype=torch.float64)
print("ranks", torch.linalg.matrix_rank(batch, atol=tols))
print("traces", torch.linalg.pinv(batch, atol=tols).diagonal(dim1=-2, dim2=-1).sum(-1))

# a (1,) tolerance gives the 2-D input's result a leading 1, as the broadcast says
print("shape", tuple(torch.linalg.pinv(G, atol=torch.tensor([1.0], dtype=torch.float64)).shape))
try:
    torch.linalg.pinv(G, rtol=torch.tensor(0.5j))
except RuntimeError as e:
    print("RuntimeError:", e)

# the gradient of sum(pinv(M)) where the tolerance keeps every direction (the derivative of
# the pseudo-inverse holds at constant rank), against central differences
tol = torch.tensor(0.5, dtype=torch.float64)
M = G.clone().requires_grad_()
torch.linalg.pinv(M, atol=tol).sum().backward()
h = 1e-6
E = torch.zeros(4, 4, dtype=torch.float64)
E[0, 1] = h
fd = (torch.linalg.pinv(G + E, atol=tol).sum() - torch.linalg.pinv(G - E, atol=tol).sum()) / (2 * h)
print("grad[0, 1] matches difference:", abs(M.grad[0, 1].item() - fd.item()) < 1e-5)
