import torch

t = torch.tensor([1, 2, 3])
print(t, t.dtype)
print(torch.tensor([1, 2.0]).dtype)
print(torch.tensor(5).dtype, torch.tensor(5.0).dtype, torch.tensor(True).dtype)
print(torch.arange(5).dtype, torch.arange(5.0).dtype, torch.zeros(2).dtype)

try:
    w = torch.tensor([1, 2, 3], requires_grad=True)
except RuntimeError as e:
    print(e)

w = torch.tensor([1, 2, 3], dtype=torch.float32, requires_grad=True)
(w * 2).sum().backward()
print(w.grad)

print(t * 2, t / 2, t + 0.5)
print(t.sum(), t.float().mean())
try:
    t.mean()
except RuntimeError as e:
    print(e)
print(torch.tensor([[1, -2], [30, 400]]))
print(torch.LongTensor([3, 4]), torch.IntTensor([5]))
