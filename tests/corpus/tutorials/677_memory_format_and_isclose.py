import math, torch
print(math.isclose(1.0, 1.0 + 1e-12), math.isclose(1, 2, abs_tol=1), math.isclose(torch.tensor(2.0), 2))
try:
    math.isclose(1, 2, rel_tol=-1)
except ValueError as e:
    print(e)
x = torch.ones(2, 3).t()
print(torch.zeros_like(x).stride(), torch.zeros_like(x, memory_format=torch.contiguous_format).stride(), x.clone(memory_format=torch.contiguous_format).stride(), x.clone().stride())
print(torch.preserve_format, torch.channels_last, x.contiguous(memory_format=torch.contiguous_format).stride(), torch.ones_like(x, memory_format=torch.preserve_format).stride())
