# Higher derivatives of GELU in double precision, the way a physics-informed loss takes them:
# the first derivative with create_graph=True is itself a node of the graph, and the second
# and third derivatives are taken through it.
import torch
import torch.nn.functional as F
from torch.func import hessian

pts = torch.tensor([-2.0, -1.0, 0.0, 1.0, 2.0], dtype=torch.float64, requires_grad=True)

for mode in ("none", "tanh"):
    act = F.gelu(pts, approximate=mode)
    first = torch.autograd.grad(act.sum(), pts, create_graph=True)[0]
    second = torch.autograd.grad(first.sum(), pts, create_graph=True)[0]
    third = torch.autograd.grad(second.sum(), pts)[0]
    print(mode, "first:", first)
    print(mode, "second:", second)
    print(mode, "third:", third)
    # the same numbers without create_graph, bit for bit
    plain = torch.autograd.grad(F.gelu(pts, approximate=mode).sum(), pts)[0]
    print(mode, "unchanged:", torch.equal(plain, first.detach()))

# the curvature matrix by forward-over-reverse; its zeros keep the sign of gelu'(x) * 0
curv = hessian(lambda v: F.gelu(v).sum())(pts.detach())
print(curv)
print(1 / curv[0, 1], 1 / curv[1, 0])

# a tiny double-precision PINN residual u'' with a GELU network
torch.manual_seed(3)
net = torch.nn.Sequential(torch.nn.Linear(1, 4), torch.nn.GELU(), torch.nn.Linear(4, 1)).double()
t = torch.linspace(0, 1, 3, dtype=torch.float64).reshape(-1, 1).requires_grad_()
u = net(t)
u_t = torch.autograd.grad(u, t, torch.ones_like(u), create_graph=True)[0]
u_tt = torch.autograd.grad(u_t, t, torch.ones_like(u_t), create_graph=True)[0]
print(u_t.grad_fn.name(), u_tt.grad_fn.name())
loss = (u_tt + u).pow(2).mean()
loss.backward()
print([round(v, 10) for v in net[0].weight.grad.flatten().tolist()])
