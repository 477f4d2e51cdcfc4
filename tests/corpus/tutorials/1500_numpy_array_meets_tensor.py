# Mixing NumPy arrays into tensor code, the way course notebooks do: a tensor on the left
# hands the work to NumPy (its dtype rules, a tensor back); an array on the left gives up.
import numpy as np
import torch

x = torch.tensor([1.0, 2.0, 4.0])
scale = np.array(0.5)                      # a 0-d float64 array, not a Python float
offsets = np.array([0.1, 0.2, 0.3], dtype=np.float32)

print(x * scale)                           # float64: NumPy promotes, unlike x * 0.5
print(x * 0.5, x * np.float64(0.5))        # numbers (NumPy scalars too) keep float32
print(x + offsets)
print(x ** np.array([2.0, 1.0, 0.5]))
print(x // np.array(3.0), x % np.array([2, 3, 3]))
print(torch.tensor([5, 7]) / np.array([2, 2]))
print(np.array([3.0, 3.0, 3.0]) / x)       # Tensor.__rtruediv__: x.reciprocal() * array
print(x == np.array([1.0, 0.0, 4.0]))      # == is the tensor's own comparison
print(x != np.array([1.0, 0.0, 4.0]))      # != falls back to identity
print(torch.tensor([True, False]) & np.array([True, True]))

for name, f in [
    ("array + tensor", lambda: np.ones(3) + x),
    ("array * tensor", lambda: np.ones(3) * x),
    ("array - tensor", lambda: np.ones(3) - x),
    ("array ** tensor", lambda: np.ones(3) ** x),
    ("tensor > array", lambda: x > np.zeros(3)),
    ("tensor @ float", lambda: x @ 2.0),
    ("tensor @ np scalar", lambda: x @ np.float32(2)),
    ("shapes", lambda: x + np.ones(2)),
]:
    try:
        print(name, "->", f())
    except (TypeError, ValueError) as e:
        print(name, "->", type(e).__name__ + ":", e)

w = torch.ones(3, requires_grad=True)
try:
    w * offsets
except RuntimeError as e:
    print(e)
with torch.no_grad():
    print(w * offsets)

# x += array is not in place: the name is bound to NumPy's new (float64) tensor
y = x
x += np.array([1.0, 1.0, 1.0])
print(x, y, x is y)
a = np.zeros(3)
try:
    a -= torch.ones(3)
except TypeError as e:
    print(e)
a /= torch.tensor([2.0, 4.0, 8.0])
print(type(a).__name__, a)
