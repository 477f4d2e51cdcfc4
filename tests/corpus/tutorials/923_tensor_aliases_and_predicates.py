# Tensor attributes and PyTorch's longer names that notebooks use: the NumPy-style aliases
# (absolute, greater, less_equal, swapdims...), the angle conversions with their gradients,
# nan-ignoring maximum, sign-bit and infinity tests, and where a tensor lives in memory.
import math

import torch

angles = torch.tensor([0.0, 30.0, 45.0, 90.0, 180.0], requires_grad=True)
radians = torch.deg2rad(angles)
print(radians, radians.grad_fn.name())
torch.sin(radians).sum().backward()
print(angles.grad)
print(radians.rad2deg())
print(torch.deg2rad(torch.tensor([360, -90])))

x = torch.tensor([[-1.5, 2.0, -0.0], [0.0, float("inf"), -float("inf")]])
print(x.absolute(), torch.absolute(x[0]))
print(torch.signbit(x))
print(x.isposinf(), torch.isneginf(x))
print(torch.positive(x) is x)

a = torch.tensor([1.0, float("nan"), 3.0, float("nan")], requires_grad=True)
b = torch.tensor([2.0, 0.5, float("nan"), float("nan")], requires_grad=True)
m = torch.fmax(a, b)
print(m, torch.fmin(a, b))
print(torch.maximum(a, b))
(m * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
print(a.grad, b.grad)

t = torch.arange(6.0).reshape(2, 3)
print(torch.greater(t, 2), t.greater_equal(2))
print(torch.less(t, 4).sum(), t.less_equal(1).any(), t.not_equal(0).all())
u = t.clone()
u.less_(3)
print(u)
print(t.swapdims(0, 1), torch.swapdims(t, 1, 0).shape)

print(t.is_cpu, t.get_device(), t.layout, t.layout == torch.strided)
print(t.nbytes, t.itemsize, t.element_size(), torch.zeros(4, dtype=torch.int16).nbytes)
print(t.storage_offset(), t[1].storage_offset(), t[:, 2].storage_offset())
print(t.is_same_size(torch.zeros(2, 3)), torch.is_same_size(t, t.T))
print(torch.tensor([0.0]).is_nonzero(), torch.is_nonzero(torch.tensor(math.pi)))
try:
    torch.tensor([1.0, 2.0]).is_nonzero()
except RuntimeError as e:
    print("RuntimeError:", e)
