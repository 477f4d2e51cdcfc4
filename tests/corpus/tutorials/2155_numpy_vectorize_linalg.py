# Elementwise rules written as plain Python functions and vectorized with NumPy, applied to
# a model's outputs, and NumPy 2's linear-algebra helpers on a small covariance.
import numpy as np
import torch

torch.manual_seed(4)
logits = torch.randn(6).numpy().astype(np.float64)


@np.vectorize
def to_label(z):
    return 1 if z > 0 else 0


print(np.round(logits, 4), to_label(logits), to_label(logits).dtype)
clip = np.vectorize(lambda z, lo, hi: min(max(z, lo), hi))
print(clip(logits, -0.5, [[0.5], [1.0]]))
halves = np.vectorize(lambda k: k / 2, otypes=[np.float32])
print(repr(halves([1, 2, 3])))
split = np.vectorize(lambda z: (abs(z), z < 0))
magnitude, negative = split(logits)
print(np.round(magnitude, 3), negative)

seen = []


def record(z):
    seen.append(type(z).__name__)
    return z * 10


print(np.vectorize(record)(np.array([1.5, 2.5])), seen)

cov = np.cov(np.arange(12.0).reshape(3, 4) ** 0.5)
print(np.round(np.linalg.cond(cov + np.eye(3)), 6), np.round(np.linalg.svdvals(cov), 6))
step = np.array([[0.9, 0.1], [0.2, 0.8]])
print(np.linalg.matrix_power(step, 3), np.linalg.matrix_power(step, 0))
print(np.linalg.multi_dot([step, step, np.array([1.0, 0.0])]), np.linalg.outer([1, 2], [3, 4]))
print(np.linalg.vector_norm([3.0, 4.0]), np.linalg.matrix_norm(step), np.linalg.trace(step))

try:
    np.vectorize(record)([])
except ValueError as e:
    print("ValueError:", e)
