import torch

b = torch.tensor([1.5, 2.5], dtype=torch.bfloat16)
h = torch.tensor([1.5, 2.5], dtype=torch.float16)
f = torch.tensor([1.5, 2.5])
d = torch.tensor([1.5, 2.5], dtype=torch.float64)
i = torch.tensor([1, 2])

# bfloat16 with float16 gives float32 (neither holds the other)
print((b + h).dtype, (b * f).dtype, (b - d).dtype, (b + i).dtype)
print(torch.promote_types(torch.bfloat16, torch.float16))
print(torch.result_type(b, 2.5), torch.result_type(b, f))

# Python numbers and 0-d tensors keep bfloat16
print(b * 0.1, b + 1, 2 / b)
print(b + torch.tensor(0.1))
print(b**2, b**0.5)

# comparisons give bool
print(b > 2, b == torch.tensor([1.5, 2.0], dtype=torch.bfloat16))
print(torch.maximum(b, torch.tensor([2.0, 2.0], dtype=torch.bfloat16)))
print(b.sum(), b.mean(), b.abs(), -b)
print(torch.relu(b - 2), torch.sqrt(b), torch.log(b))
print(torch.sin(b), torch.cos(b))
