import torch

a = torch.tensor([7, -7, 10, 3])
b = torch.tensor([2, 2, -3, 5])
print(a // b)
print(a % b)
print(a // 3, a % 3)
print(torch.div(a, b, rounding_mode='floor'), torch.div(a, b, rounding_mode='trunc'))
print(torch.remainder(a, b), torch.fmod(a, b))

x = torch.tensor([5.5, -5.5, 7.25], requires_grad=True)
print(x // 2)
print(x % 2)
r = x % 2
r.sum().backward()
print(x.grad)
print(a / b)
print(7 // torch.tensor([2, 3]), 7 % torch.tensor([2, 3]))
