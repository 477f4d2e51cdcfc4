# QR the LAPACK way, as numerical-linear-algebra notes show it: torch.geqrf gives R on and
# above the diagonal with the Householder vectors below it, and tau; Q is rebuilt from them
# and checked against the matrix. geqrf has no derivative in PyTorch.
import torch

A = torch.tensor([[12.0, -51.0, 4.0], [6.0, 167.0, -68.0], [-4.0, 24.0, -41.0], [1.0, 2.0, 3.0]],
                 dtype=torch.float64)
a, tau = torch.geqrf(A)
print(a)
print(tau)
R = torch.triu(a[:3])
Q = torch.eye(4, dtype=torch.float64)
for i in range(3):
    v = torch.zeros(4, dtype=torch.float64)
    v[i] = 1.0
    v[i + 1:] = a[i + 1:, i]
    Q = Q @ (torch.eye(4, dtype=torch.float64) - tau[i] * torch.outer(v, v))
print(torch.allclose(Q[:, :3] @ R, A), R.diagonal().abs())

torch.manual_seed(0)
B = torch.randn(5, 3, requires_grad=True)
out = torch.geqrf(B)
print(out.a.grad_fn.name(), out.tau)
try:
    out.a.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
W = torch.randn(2, 4)
print(W.geqrf())
