# The angle of a point, atan2(y, x), and its curvature: PyTorch's first derivatives at the
# origin are 0 (its backward masks the infinite reciprocal), the second ones nan there.
import torch

y = torch.tensor([0.0, 1.0, 0.0, -2.0], requires_grad=True)
x = torch.tensor([0.0, 0.0, 2.0, 1.0], requires_grad=True)
theta = torch.atan2(y, x)
gy, gx = torch.autograd.grad(theta.sum(), [y, x], create_graph=True)
print(theta, gy, gx, sep="\n")
print(torch.autograd.grad(gy.sum(), [y, x], retain_graph=True))
print(torch.autograd.grad(gx.sum(), [y, x]))
p = torch.tensor([0.0, 1.0], requires_grad=True)
g = torch.autograd.grad(torch.atan2(p, p).sum(), p, create_graph=True)[0]
print(g, torch.autograd.grad(g.sum(), p))
