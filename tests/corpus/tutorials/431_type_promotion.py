import torch

i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 0.5, 0.5])
d = torch.tensor([1.0, 1.0, 1.0], dtype=torch.float64)
b = torch.tensor([True, False, True])
print((i + f).dtype, i + f)
print((i + 1).dtype, (i + 1.5).dtype, i + 1.5)
print((i * True).dtype, (b + b).dtype, b + b, b * 3, b + 0.5)
print((f + d).dtype, (i + d).dtype)
print((f + torch.tensor(2.0, dtype=torch.float64)).dtype)
print((i + torch.tensor(2.5)).dtype)
print((torch.tensor([1], dtype=torch.int32) + torch.tensor(5)).dtype)
print((torch.tensor([1], dtype=torch.int8) + 1000).dtype)
print((torch.tensor([1], dtype=torch.uint8) + torch.tensor([1], dtype=torch.int8)).dtype)
print((torch.tensor([1.0], dtype=torch.float16) + 1.0).dtype)
print((torch.tensor([1.0], dtype=torch.float16) + torch.tensor([1.0])).dtype)
print(torch.result_type(i, 1.0), torch.result_type(i, f), torch.result_type(b, 2))
print(torch.promote_types(torch.int32, torch.float32), torch.promote_types(torch.uint8, torch.int8))
print(torch.can_cast(torch.float32, torch.int32), torch.can_cast(torch.int32, torch.float32))
print(i.sum().dtype, b.sum().dtype, torch.tensor([1, 2], dtype=torch.int8).sum().dtype)
print(i.mean(dtype=torch.float32), i.float().mean())
try:
    i.mean()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    i += 0.5
except RuntimeError as e:
    print("RuntimeError:", e)
f += i
print(f)
print(b.logical_not(), torch.logical_and(b, ~b))
try:
    -b
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    b - b
except RuntimeError as e:
    print("RuntimeError:", e)
print(i ** 2, i ** -1.0, 2 ** i, i ** 0.5)
try:
    i ** -1
except RuntimeError as e:
    print("RuntimeError:", e)
