import torch

torch.manual_seed(0)
torch.set_printoptions(precision=10)

# Normals of a few triangles: (p1 - p0) x (p2 - p0), and their areas
p = torch.randn(4, 3, 3, dtype=torch.float64, requires_grad=True)
e1 = p[:, 1] - p[:, 0]
e2 = p[:, 2] - p[:, 0]
n = torch.linalg.cross(e1, e2)
print(n)
area = 0.5 * n.norm(dim=-1)
print(area)
area.sum().backward()
print(p.grad[0])

# a vector crossed with itself: zero in exact arithmetic, rounding noise here
v = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float64)
print(torch.linalg.cross(v, v))
w = torch.tensor([0.1, 0.7, 1.3])
print(torch.linalg.cross(w, w))

# torque r x F in float32, vectors stored in columns (dim=0)
r = torch.randn(3, 5, requires_grad=True)
F = torch.randn(3, 5)
tau = torch.cross(r, F, dim=0)
print(tau, tau.stride())
(tau ** 2).sum().backward()
print(r.grad)

# forward mode through the cross product
from torch.func import jvp

out, tangent = jvp(lambda a: torch.linalg.cross(a, F.t()), (r.detach().t(),), (torch.ones(5, 3),))
print(tangent)
