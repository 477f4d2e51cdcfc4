import torch

x = torch.tensor(1.5, requires_grad=True)
y = x ** 4 - 2 * x ** 2

# first derivative, keeping the graph so it can be differentiated again
dy_dx, = torch.autograd.grad(y, x, create_graph=True)
print(dy_dx)

d2y_dx2, = torch.autograd.grad(dy_dx, x)
print(d2y_dx2)

print("analytic:", 4 * 1.5 ** 3 - 4 * 1.5, 12 * 1.5 ** 2 - 4)
