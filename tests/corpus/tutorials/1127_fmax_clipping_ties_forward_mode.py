# A floor on activations written with torch.fmax (NaN-safe clipping), differentiated three
# ways: reverse mode, forward mode (torch.func.jvp / jacfwd) and the Hessian of a penalty.
# Where an activation equals its floor exactly, PyTorch's reverse rule gives the gradient to
# the input and its forward rule takes the floor's tangent.
import torch
from torch.func import hessian, jacfwd, jvp

acts = torch.tensor([0.5, -1.0, 0.25, 2.0, float("nan"), 0.25])
floor = torch.tensor([0.25, 0.0, 0.25, 1.5, 0.0, float("nan")])

print(torch.fmax(acts, floor), torch.fmin(acts, floor))
a = acts.clone().requires_grad_()
f = floor.clone().requires_grad_()
torch.fmax(a, f).mul(torch.arange(1.0, 7.0)).sum().backward()
print(a.grad, f.grad)

da = torch.full((6,), 0.1)
df = torch.full((6,), 0.7)
for fn in (torch.fmax, torch.fmin):
    _, tangent = jvp(fn, (acts, floor), (da, df))
    print(fn.__name__, tangent.tolist())
    ja, jf = jacfwd(fn, argnums=(0, 1))(acts, floor)
    print(ja.diagonal(), jf.diagonal())

x = torch.tensor([0.3, -0.2, 0.3, 1.1])
c = torch.tensor([0.3, 0.1, -0.4, 1.1])
penalty = lambda v: (torch.fmax(v, c) ** 3).sum() + (torch.fmin(v, c) ** 2).sum()
print(hessian(penalty)(x))
print(torch.autograd.functional.hessian(penalty, x))
