# How do clone(), .double(), zeros_like and contiguous() lay out a permuted tensor?
import torch

x = torch.arange(24.0).reshape(2, 3, 4).permute(2, 0, 1)   # shape (4, 2, 3)
print(x.shape, x.stride(), x.is_contiguous())

for name, t in [
    ("clone", x.clone()),
    ("double", x.double()),
    ("to int64", x.to(torch.int64)),
    ("zeros_like", torch.zeros_like(x)),
    ("contiguous", x.contiguous()),
    ("clone contiguous_format", x.clone(memory_format=torch.contiguous_format)),
]:
    print(f"{name:>24}: {t.stride()} {t.is_contiguous()}")

# a slice with a step has gaps: its copies close them up in the same order
s = x[:, :, ::2]
print(s.stride(), s.clone().stride(), torch.empty_like(s).stride(), (s + 1).stride())

# an expanded tensor has stride 0 along the expanded dimension
e = torch.tensor([[1.0, 2.0, 3.0]]).expand(4, 3)
print(e.stride(), e.clone().stride(), (e * 1).stride(), e.contiguous().stride())

# mixed dtypes: the float64 result is laid out after the converted operand
a = torch.arange(6.0).reshape(2, 3).t()
b = torch.ones(3, 2, dtype=torch.float64)
print((a + b).dtype, (a + b).stride(), (b + a).stride())

# size-1 dimensions keep PyTorch's strides too
c = torch.arange(3.0).reshape(3, 1, 1).permute(1, 2, 0)     # shape (1, 1, 3)
print(c.stride(), c.is_contiguous(), (c * 2).stride(), (-c).stride(), c.clone().stride())
