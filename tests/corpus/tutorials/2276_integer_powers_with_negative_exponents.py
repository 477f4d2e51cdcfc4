# Integer tensors raised to integer tensors: a negative exponent is allowed when it is a
# tensor (only `int_tensor ** -1` with a Python int is refused).
import torch

bases = torch.tensor([1, -1, 2, -2, 0, 3])
exps = torch.tensor([-3, -3, -1, -2, -1, 2])
print(bases ** exps)
print(torch.pow(bases, exps))
print(2 ** torch.tensor([-1, 0, 3]))
print(torch.tensor(-1) ** torch.arange(-4, 4))

b = torch.tensor([5, -1, 1], dtype=torch.int32)
b.pow_(torch.tensor([-2, -5, -7], dtype=torch.int32))
print(b, b.dtype)

small = torch.tensor([2, 4], dtype=torch.int8)
print(small ** torch.tensor([-1, 3], dtype=torch.int8))

# float bases are the ordinary power
print(torch.tensor([2.0, 4.0]) ** torch.tensor([-1, -2]))

try:
    print(torch.tensor([2, 3]) ** -1)
except RuntimeError as e:
    print("RuntimeError:", e)

# the counts of a histogram as weights, with a power that is sometimes negative
counts = torch.tensor([1, 2, 1, 4])
print((counts ** torch.tensor([-1, 1, -2, 0])).sum())
