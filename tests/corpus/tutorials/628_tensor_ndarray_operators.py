# Tensors meeting NumPy arrays in course scripts: an operator with an array goes through
# NumPy (float64 results wrapped back into tensors); a tensor that requires grad is refused.
import torch
import numpy as np
t = torch.ones(2, 3)
a = np.ones((3, 2)) * 2.0
print(t @ a)
print(t @ np.ones(3, dtype=np.float32))
tg = torch.ones(2, 2, requires_grad=True)
for f in [lambda: tg + np.ones((2, 2)), lambda: tg @ np.ones((2, 2)), lambda: np.ones((2, 3)) @ t.T]:
    try:
        print(f())
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__, e)
with torch.no_grad():
    print(tg * np.ones((2, 2)))
