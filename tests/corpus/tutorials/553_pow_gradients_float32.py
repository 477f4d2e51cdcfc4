# Gradients of powers in float32, printed with every digit: d/dx and d/dy of x ** y,
# and of a tensor raised to a number plus a number raised to the tensor.
import torch

x = torch.linspace(0.2, 4.0, 50, requires_grad=True)
y = torch.linspace(-2.0, 3.0, 50, requires_grad=True)
(x**y).sum().backward()
print(x.grad.tolist())
print(y.grad.tolist())

z = torch.linspace(0.2, 4.0, 45, requires_grad=True)
(z**2.5 + 3.0**z).sum().backward()
print(z.grad.tolist())
