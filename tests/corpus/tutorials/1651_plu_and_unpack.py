# P, L, U from torch.linalg.lu and from torch.lu_unpack, rebuilding A, for square,
# wide and tall matrices, and the deprecated torch.lu with its infos.
import warnings

import torch

warnings.filterwarnings("ignore", category=UserWarning)  # the deprecation notices

torch.manual_seed(3)
A = torch.randn(3, 3)
P, L, U = torch.linalg.lu(A)
print(P)
print(L)
print(U)
print(torch.allclose(P @ L @ U, A, atol=1e-6))
print(L.stride(), U.stride(), P.stride())

W = torch.randn(2, 4, dtype=torch.float64, requires_grad=True)
P, L, U = torch.linalg.lu(W)
print(L.shape, U.shape, L.grad_fn.name())
(L.sum() + (U**2).sum()).backward()
print(W.grad)

T = torch.randn(4, 2, dtype=torch.float64, requires_grad=True)
LU, piv = torch.linalg.lu_factor(T)
print(piv)
P, L, U = torch.lu_unpack(LU, piv)
print(P.shape, L.shape, U.shape, U.grad_fn.name())
(L * torch.arange(8.0, dtype=torch.float64).reshape(4, 2)).sum().backward()
print(T.grad)

batch = torch.randn(2, 3, 3)
LU, piv, info = torch.lu(batch, get_infos=True)
print(piv)
print(info)
P, L, U = torch.lu_unpack(LU, piv)
print(torch.allclose(P @ L @ U, batch, atol=1e-6))
out = torch.lu(batch[0])
print(type(out).__name__, len(out))
