import torch

print(torch.get_default_dtype())
print(torch.tensor([1.0, 2.0]).dtype)

torch.set_default_dtype(torch.float64)
print(torch.get_default_dtype())
x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x)
print(x.dtype, torch.zeros(2).dtype, torch.tensor([1, 2]).dtype)
(x.exp() / 3).sum().backward()
print(x.grad)
print(torch.tensor([1.0], dtype=torch.float32))

torch.set_default_dtype(torch.float32)
print(torch.tensor([1 / 3]))
print(torch.get_default_dtype() == torch.float32)
