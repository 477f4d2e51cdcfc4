import torch

x = torch.tensor([1, 2, 3])
f = torch.tensor([1.0, 2.0, 3.0])
d = torch.tensor([1.0, 2.0], dtype=torch.float64)
b = x > 1

for t in (x, f, d, b):
    print(type(t), t.dtype, t.shape, t.dtype.is_floating_point)

print(x.float(), f.long(), f.double(), b.int())
print(x.to(torch.float32) / 2)
print(x / 2)
print(x * 1.5)
print((x + f).dtype, (f[:2] + d).dtype, (x + True).dtype)
print(f.type(torch.int32))
print(torch.float32 == torch.float, torch.long)
