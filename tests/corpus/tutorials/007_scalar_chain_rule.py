import torch

x = torch.tensor(3.0, requires_grad=True)
y = x ** 2
z = 2 * y + 1

z.backward()

print(f"z = {z.item()}")
print(f"dz/dx at x = 3: {x.grad}")
print(f"expected 4x = {4 * x.item()}")
