import torch

# Running sum of phasors: the path of a random walk in the complex plane.
steps = torch.tensor([1 + 0j, 0.5j, -0.25 + 0.75j, 0.1 - 1j], dtype=torch.complex128)
path = torch.cumsum(steps, dim=0)
print(path)
print(path.abs())

# Complex64 sums accumulate in double precision before each result is rounded.
small = torch.full((6,), 0.1 + 0.2j, dtype=torch.complex64)
print(small.cumsum(0))

# Gradients of a real loss with respect to the complex steps.
z = steps.clone().requires_grad_()
end_distance = torch.cumsum(z, 0)[-1].abs()
spread = torch.cumsum(z, 0).real.var()
(end_distance + spread).backward()
print(z.grad)

# A real signal summed into complex numbers: its gradient is the real part.
x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]], dtype=torch.float64, requires_grad=True)
acc = torch.cumsum(x, dim=1, dtype=torch.complex128) * torch.tensor(1 - 2j, dtype=torch.complex128)
acc.abs().sum().backward()
print(x.grad)

# In place, along the last dimension.
grid = torch.tensor([[1j, 2.0, -1j], [0.5, 0.5j, 1.0]])
grid.cumsum_(-1)
print(grid)
