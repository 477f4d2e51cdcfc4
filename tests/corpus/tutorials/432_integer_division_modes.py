import torch

a = torch.tensor([7, -7, 5, -5])
b = torch.tensor([2, 2, -3, -3])
print(a / b, (a / b).dtype)
print(a // b)
print(a % b)
print(torch.div(a, b, rounding_mode="trunc"))
print(torch.div(a, b, rounding_mode="floor"))
print(torch.div(a, b))
print(torch.fmod(a, b), torch.remainder(a, b))
print(a / 2, a // 2, a % 2)
print(torch.tensor([7.5, -7.5]) // 2, torch.tensor([7.5, -7.5]) % 2)
print(torch.floor_divide(a, 2))
print(7 // torch.tensor([2, -2]), 7 % torch.tensor([2, -2]))
print(torch.tensor([1, 2]) / torch.tensor([0, 0]))
try:
    torch.tensor([1, 2]) // torch.tensor([0, 1])
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.tensor([1, 2]) % 0
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.tensor([1.0, -1.0, 0.0]) // 0)
print(torch.tensor(10) / torch.tensor(4), torch.true_divide(torch.tensor(10), 4))
