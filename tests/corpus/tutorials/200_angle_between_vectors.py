# Angles from coordinates: atan2 for the heading of a 2-D point, acos of the cosine
# similarity for the angle between two vectors, and what their gradients look like.
import math

import torch

# Heading of a point (x, y) in degrees: atan2 handles every quadrant.
pts = torch.tensor([[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [0.0, 2.0]],
                   requires_grad=True)
heading = torch.atan2(pts[:, 1], pts[:, 0])
print("heading (rad):", heading)
print("heading (deg):", heading * 180 / math.pi)
heading.sum().backward()
print("d heading / d (x, y):")
print(pts.grad)

# The angle between two vectors, through the cosine similarity.
u = torch.tensor([1.0, 2.0, 2.0], requires_grad=True)
v = torch.tensor([2.0, 1.0, -2.0])
cos = (u * v).sum() / (u.norm() * v.norm())
theta = torch.acos(cos)
print(f"cos = {cos.item():.6f}, angle = {theta.item():.6f} rad")
theta.backward()
print("d angle / d u:", u.grad)

# acos has an infinite slope at +-1: clamp a little inside before taking it.
w = torch.tensor([1.0, 2.0, 2.0], requires_grad=True)
cos_same = (w * w).sum() / (w.norm() * w.norm())
safe = torch.acos(cos_same.clamp(-1 + 1e-6, 1 - 1e-6))
safe.backward()
print("angle of a vector with itself:", round(safe.item(), 4), "grad:", w.grad)

# arctan2 is the NumPy-style alias; Tensor.atan2 the method form.
a = torch.tensor([0.5, -0.5], requires_grad=True)
b = torch.tensor([-2.0, -2.0], requires_grad=True)
print(torch.arctan2(a, b), a.atan2(b))
torch.arctan2(a, b).sum().backward()
print(a.grad, b.grad)
