import torch

# bfloat16 keeps float32's range with only 8 bits of precision
x = torch.tensor([1.0, 2.5, 3.14159, -0.1], dtype=torch.bfloat16)
print(x)
print(x.dtype, x.element_size(), x.is_floating_point())

# converting back and forth
f = torch.tensor([0.1, 0.2, 0.3])
b = f.to(torch.bfloat16)
print(b)
print(b.float())
print(b.to(torch.float64))
print(f.bfloat16().dtype, b.type())

# scalars and a matrix
s = torch.tensor(3.14159, dtype=torch.bfloat16)
print(s, s.item())
m = torch.arange(6, dtype=torch.float32).reshape(2, 3).to(torch.bfloat16) / 7
print(m)
print(m.tolist())

# big and small values print in scientific notation
print(torch.tensor([1e-8, 1e8, 3e38], dtype=torch.bfloat16))
print(torch.tensor([1e-3, 1.0, 100.0], dtype=torch.bfloat16))

# the limits of the type
info = torch.finfo(torch.bfloat16)
print(info)
print(info.eps, info.max, info.tiny, info.bits)
print(torch.finfo(torch.float32).eps / info.eps)

# constructors take the dtype too
print(torch.zeros(3, dtype=torch.bfloat16))
print(torch.ones(2, 2, dtype=torch.bfloat16) * 0.1)
print(torch.full((2,), 1 / 3, dtype=torch.bfloat16))
print(torch.linspace(0, 1, 5, dtype=torch.bfloat16))
