# NumPy's two-input ufuncs on float32 data prepared for a model: dtypes stay float32 when the
# other operand is a plain Python number (NumPy 2's weak scalars), and tensors come back.
import numpy as np
import torch

signal = np.array([0.5, -1.25, 2.0, 0.0], dtype=np.float32)
print(np.arctan2(signal, 1).dtype, np.hypot(signal, 2.0).dtype, np.fmod(signal, 2).dtype)
print(np.copysign(signal, -1), np.heaviside(signal, 0.5))
print(np.fmax(signal, 0.25), np.fmin(signal, np.array([np.nan, 0, 0, 0], dtype=np.float32)))
print(np.greater(signal, 0), np.not_equal(signal, 0.0), np.less_equal(signal, [0, 0, 3, 0]))
print(np.logaddexp(signal, 0).round(4), np.float_power(signal, 2).dtype)
steps = np.array([12, 18, -8], dtype=np.int16)
print(np.gcd(steps, 12), np.lcm(steps, 5), np.true_divide(steps, 4), np.mod(steps, 5).dtype)
print(np.arctan2(3, 4), np.hypot(5, 12), np.greater(2, 1))

t = torch.from_numpy(signal.astype(np.float64))
both = np.copysign(t, -1.0)
print(type(both).__name__, both)
print(np.fmax(t, 0.25), np.equal(t, 0.0))
mask = np.greater(torch.tensor([1, 5, 3]), 2)
print(mask, mask.dtype)
try:
    np.fmax(signal, np.ones(3))
except ValueError as e:
    print("ValueError:", e)
