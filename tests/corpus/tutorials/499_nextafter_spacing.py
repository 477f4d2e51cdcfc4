# How far apart are neighbouring floats? torch.nextafter steps one representable value.
import torch

one = torch.tensor([1.0, 1000.0, 1e-3])
up = torch.nextafter(one, torch.tensor(float("inf")))
print(up - one)
print((up - one) / one)

d = torch.tensor([1.0], dtype=torch.float64)
print(torch.nextafter(d, torch.tensor([2.0], dtype=torch.float64)) - d)
print(torch.nextafter(torch.tensor(0.0), torch.tensor(1.0)))
print(torch.finfo(torch.float32).eps, (torch.nextafter(torch.tensor(1.0), torch.tensor(2.0)) - 1).item())

# its gradient: the input's passes through, the direction gets none
x = torch.tensor([0.5, -2.0], requires_grad=True)
toward = torch.zeros(2, requires_grad=True)
y = torch.nextafter(x, toward)
print(y.grad_fn.name())
(3 * y).sum().backward()
print(x.grad, toward.grad)

h = torch.tensor([1.0, 2.0], dtype=torch.float16)
print(h.nextafter(torch.tensor([0.0, 3.0], dtype=torch.float16)))
z = torch.ones(3)
z.nextafter_(torch.zeros(3))
print(z.tolist())
try:
    torch.nextafter(torch.tensor([1, 2]), torch.tensor([3, 4]))
except RuntimeError as e:
    print(e)
