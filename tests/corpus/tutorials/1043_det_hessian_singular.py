# Second derivatives of determinants at singular matrices: det's backward goes through the SVD
# there (its Hessian at the zero matrix is NaN in PyTorch: the zero singular values repeat),
# while logdet / slogdet have no singular branch (their grad-mode backward solves with A and
# raises). At an invertible matrix all of them are finite.
import torch
from torch.autograd.functional import hessian

zero = torch.zeros(2, 2)
rank1 = torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=torch.float64)
spd = torch.tensor([[2.0, 0.5], [0.5, 1.0]])

print(hessian(torch.det, zero))
print(hessian(torch.linalg.det, torch.zeros(3, 3)).isnan().all())
H = hessian(torch.det, rank1)  # finite; its last bits come from the SVD
print(H.abs().gt(0.5).int(), H.abs().max().item())
print(hessian(torch.logdet, spd))

for name, f in [("logdet", torch.logdet), ("slogdet", lambda a: torch.linalg.slogdet(a)[1])]:
    try:
        hessian(f, rank1)
    except RuntimeError as e:
        print(name + ":", e)

x = zero.clone().requires_grad_()
(g,) = torch.autograd.grad(torch.linalg.det(x), x, create_graph=True)
print(g)
(h,) = torch.autograd.grad(g.sum(), x)
print(h)

w = torch.stack([spd, rank1.float()]).requires_grad_()
try:
    torch.autograd.grad(torch.linalg.slogdet(w).logabsdet.sum(), w, create_graph=True)
except torch.linalg.LinAlgError as e:
    print("batched:", e)
(gd,) = torch.autograd.grad(torch.det(w).sum(), w, create_graph=True)
print(gd[0])
