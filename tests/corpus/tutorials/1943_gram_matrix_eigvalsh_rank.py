# The rank of a set of feature vectors from the eigenvalues of their Gram matrix: the zero
# eigenvalues come out as rounding noise, in float32 around 1e-7 and in float64 around 1e-16,
# and a tolerance decides what counts as zero.
import torch

torch.manual_seed(1943)
for dtype in (torch.float32, torch.float64):
    X = torch.randint(-2, 3, (3, 2)).to(dtype)  # three points in a plane
    G = X @ X.T
    evals = torch.linalg.eigvalsh(G)
    print(evals)
    tol = evals.abs().max() * G.shape[0] * torch.finfo(dtype).eps
    print("rank:", (evals.abs() > tol).sum().item(), "tolerance:", f"{tol.item():.3e}")

# a covariance matrix with two perfectly correlated features
data = torch.tensor([[1.0, 2.0, 0.5], [2.0, 4.0, -1.0], [3.0, 6.0, 0.0], [4.0, 8.0, 2.5]])
C = torch.cov(data.T)
print(C)
print(torch.linalg.eigvalsh(C))
print(torch.linalg.eigvalsh(C.double()))

# derivatives of the eigenvalues: reverse mode and a forward-mode tangent
import torch.autograd.forward_ad as fwAD

S = torch.tensor([[2.0, 1.0], [1.0, 3.0]], dtype=torch.float64, requires_grad=True)
torch.linalg.eigvalsh(S).sum().backward()
print(S.grad.diagonal())  # (the gradient of the trace: the identity)
with fwAD.dual_level():
    dual = fwAD.make_dual(S.detach(), torch.tensor([[1.0, 0.5], [0.5, 0.0]], dtype=torch.float64))
    print(fwAD.unpack_dual(torch.linalg.eigvalsh(dual)).tangent)
