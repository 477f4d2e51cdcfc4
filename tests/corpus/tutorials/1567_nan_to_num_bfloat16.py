# Cleaning a bfloat16 activation of NaNs and infinities (mixed-precision code does this before
# a loss): the default replacements are bfloat16's own largest values, and the gradient is 0
# where a value was replaced.
import torch

x = torch.tensor([float("nan"), float("inf"), -float("inf"), 1.5, -2.25], dtype=torch.bfloat16, requires_grad=True)
y = torch.nan_to_num(x)
print(y)
print(torch.nan_to_num(x, nan=2.0, posinf=1e3), x.nan_to_num(neginf=1e39))
(y * torch.arange(5)).sum().backward()
print(x.grad)
print(torch.nan_to_num(x.detach().half()), torch.finfo(torch.bfloat16).max)
