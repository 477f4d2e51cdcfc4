import torch

x = torch.tensor([-2.0, -0.5, 0.0, 0.5, 2.0], requires_grad=True)
y = torch.relu(x)
y.sum().backward()
print(y)
print(x.grad)  # the derivative at 0 is taken as 0

x.grad = None
z = torch.nn.functional.leaky_relu(x, negative_slope=0.1)
z.sum().backward()
print(z)
print(x.grad)
