# Gradients taken with create_graph=True are tensors with a history of their own: printing
# them shows the grad_fn of the last step of the backward pass (as in a physics-informed
# network, where u_x = du/dx is differentiated again for u_xx).
import torch

x = torch.tensor([[0.1], [0.5], [0.9]], requires_grad=True)
t = torch.tensor([[0.0], [0.2], [0.4]], requires_grad=True)
xt = torch.cat([x, t], dim=1)
w = torch.tensor([[1.5, -0.5], [0.25, 2.0]])
u = torch.tanh(xt @ w).sum(dim=1, keepdim=True)

u_x, u_t = torch.autograd.grad(u, [x, t], grad_outputs=torch.ones_like(u), create_graph=True)
print(u_x)
print(u_t)
u_xx = torch.autograd.grad(u_x, x, torch.ones_like(u_x), create_graph=True)[0]
print(u_xx)

# the same inputs taken from one tensor by slicing
z = torch.tensor([[0.1, 0.0], [0.5, 0.2], [0.9, 0.4]], requires_grad=True)
v = torch.tanh(z @ w).sum(dim=1)
(g,) = torch.autograd.grad(v.sum(), z, create_graph=True)
print(g)
print(torch.autograd.grad((z[:, 0] ** 3).sum(), z, create_graph=True)[0])
print(torch.autograd.grad((z[1] ** 3).sum(), z, create_graph=True)[0])
print(torch.autograd.grad((z[0, 1:] ** 3).sum(), z, create_graph=True)[0])
print(torch.autograd.grad((z[[0, 2]] ** 3).sum(), z, create_graph=True)[0])
print(torch.autograd.grad((z[z > 0.3] ** 3).sum(), z, create_graph=True)[0])
print(torch.autograd.grad((z.narrow(0, 1, 2) ** 3).sum(), z, create_graph=True)[0])

# a mean's gradient divides by the count
m = (z**2).mean()
(gm,) = torch.autograd.grad(m, z, create_graph=True)
print(gm)
print(torch.autograd.grad(gm.sum(), z)[0])
