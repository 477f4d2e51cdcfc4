# Turning data into tensors with torch.asarray, finding where the largest gradient sits with
# unravel_index, and integrating a velocity into a position with cumulative_trapezoid.
import numpy as np
import torch

readings = np.array([0.0, 0.5, 2.0, 4.5, 8.0], dtype=np.float32)
v = torch.asarray(readings)
readings[0] = 0.25
print(v, v.dtype)
print(torch.asarray([[1, 2], [3, 4]]), torch.asarray(2.0, dtype=torch.float64))
print(torch.asarray(v) is v, torch.asarray(v, copy=True) is v)
print(torch.scalar_tensor(3), torch.scalar_tensor(1, dtype=torch.int64))

torch.manual_seed(0)
w = torch.randn(3, 4, requires_grad=True)
loss = (w**3).sum()
loss.backward()
flat = w.grad.abs().argmax()
row, col = torch.unravel_index(flat, w.shape)
print(flat, row, col, w.grad[row, col])
print(torch.unravel_index(torch.tensor([0, 5, 11, 13]), (3, 4)))

t = torch.linspace(0, 2, 5)
speed = (t**2).requires_grad_()
position = torch.cumulative_trapezoid(speed, t)
print(position, position.grad_fn.name())
position[-1].backward()
print(speed.grad)
print(torch.cumulative_trapezoid(torch.tensor([[1.0, 2.0, 3.0], [2.0, 2.0, 2.0]]), dx=0.5))
print(torch.cumulative_trapezoid(torch.arange(6).reshape(3, 2), dim=0))
print(torch.trapezoid(speed.detach(), t), position[-1].item())
