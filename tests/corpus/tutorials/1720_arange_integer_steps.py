import torch

# Index ranges for a training loop: batches of 4 out of 10 samples.
starts = torch.arange(0, 10, 4)
print(starts, starts.dtype)

# Asking for an integer dtype with fractional bounds: PyTorch's int64 range converts
# the bounds toward zero before counting, the narrower integer types count from the
# fractional values.
print(torch.arange(0, 2.5, 1, dtype=torch.int64))
print(torch.arange(0, 2.5, 1, dtype=torch.int32))
print(torch.arange(0.5, 4, 1, dtype=torch.long))
print(torch.arange(3.7, -1.2, -1, dtype=torch.int64))
print(torch.arange(3.7, -1.2, -1, dtype=torch.int16))
print(torch.arange(0, 9, 2.5, dtype=torch.int64))
print(torch.arange(0, 9, 2.5, dtype=torch.uint8))

# A flag counts as the number it stands for.
use_bias = True
print(torch.arange(use_bias + 2))
print(torch.arange(True, dtype=torch.float64))

# A step that truncates to zero cannot make an int64 range.
try:
    torch.arange(0, 3, 0.5, dtype=torch.int64)
except ValueError as e:
    print("ValueError:", e)

# Per-position weights from an integer range, used in a weighted loss.
w = torch.arange(1, 4, dtype=torch.float64, requires_grad=True)
positions = torch.arange(0.2, 3.2, 1.0, dtype=torch.int64).double()
loss = (w * positions).sum()
loss.backward()
print(positions)
print(w.grad)
