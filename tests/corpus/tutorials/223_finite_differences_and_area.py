# Discrete derivatives with torch.diff and areas with torch.trapezoid, both differentiable.
import torch

t = torch.linspace(0.0, 1.0, 6)
y = (t ** 2).clone().requires_grad_()

dy = torch.diff(y) / torch.diff(t)
print("slopes:", dy)
print("second differences:", torch.diff(y, n=2))

area = torch.trapezoid(y, t)
print("area under t^2:", area)
area.backward()
print("d area / d y:", y.grad)

y.grad = None
area_dx = torch.trapezoid(y, dx=0.2)
area_dx.backward()
print(area_dx, y.grad)

# padding the series before differencing
v = torch.tensor([3.0, 5.0, 4.0], requires_grad=True)
steps = torch.diff(v, prepend=torch.tensor([0.0]), append=torch.tensor([10.0]))
print(steps)
(steps ** 2).sum().backward()
print(v.grad)
