# A loss surface on a grid (the picture optimisation notebooks draw): torch.meshgrid over two
# weight ranges, the loss of a tiny linear model at every grid point by broadcasting, the
# gradient of the total with respect to the grid axes; 'ij' against 'xy' indexing.
import torch

torch.manual_seed(0)
x = torch.linspace(-1, 1, 8)
y = 2.0 * x - 0.5 + 0.05 * torch.randn(8)

w_axis = torch.linspace(0.0, 4.0, 5, requires_grad=True)
b_axis = torch.linspace(-2.0, 1.0, 4, requires_grad=True)
W, B = torch.meshgrid(w_axis, b_axis, indexing="ij")
pred = W.unsqueeze(-1) * x + B.unsqueeze(-1)
loss = ((pred - y) ** 2).mean(-1)
print(W.shape, B.grad_fn.name())
print(loss)
best = torch.argmin(loss)
print(best, W.flatten()[best].item(), B.flatten()[best].item())
loss.sum().backward()
print(w_axis.grad, b_axis.grad)

gx, gy = torch.meshgrid(torch.arange(3.0), torch.arange(2.0), indexing="xy")
print(gx, gy, gx.stride())
cells = torch.stack(torch.meshgrid(torch.arange(2), torch.arange(3), indexing="ij"), dim=-1)
print(cells.reshape(-1, 2))
a, b = torch.broadcast_tensors(w_axis, torch.zeros(5))
print(a is w_axis, b.grad_fn)
