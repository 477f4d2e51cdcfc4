# Curvature of common activations: second derivatives by double backward, by
# torch.func.hessian and by torch.autograd.functional.hessian, including at 0.
import torch
import torch.nn.functional as F
from torch.func import hessian, jacfwd, jacrev

acts = {
    "tanh": torch.tanh,
    "gelu": F.gelu,
    "softplus": F.softplus,
    "elu": F.elu,
    "logsigmoid": F.logsigmoid,
    "hardswish": F.hardswish,
    "softsign": F.softsign,
}

x = torch.tensor([0.5, -1.0, 2.0, 0.0, -4.0])
for name, act in acts.items():
    print(f"--- {name}")
    H = hessian(act)(x)
    # the Hessian of an elementwise map is "diagonal": H[i, i, i]
    print(H.diagonal(dim1=0, dim2=1).diagonal())
    print(H[0])
    print(jacfwd(jacrev(act))(x)[3])
    total = lambda t: act(t).sum()
    print(hessian(total)(x))
    print(torch.autograd.functional.hessian(total, x))

# second derivative at exactly zero, by double backward
for name, act in acts.items():
    z = torch.zeros(1, requires_grad=True)
    (g,) = torch.autograd.grad(act(z).sum(), z, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), z)
    print(name, g.item(), h.item())

# x * |x| and a log-barrier: curvature through abs
f = lambda t: (t * t.abs()).sum()
print(torch.autograd.functional.hessian(f, torch.tensor([0.5, -1.0, 2.0])))
f = lambda t: torch.log(t.abs() + 1).sum()
print(torch.autograd.functional.hessian(f, torch.tensor([0.5, -1.0, 2.0])))

# relu squared: jvp of its gradient
w = torch.tensor([1.0, -2.0, 3.0, -0.5])
v = torch.tensor([-0.0, 1.0, -1.0, 0.0])
loss = lambda t: (F.relu(t) ** 2).sum()
print(torch.func.jvp(torch.func.grad(loss), (w,), (v,)))
