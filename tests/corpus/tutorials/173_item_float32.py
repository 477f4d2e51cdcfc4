import torch

w = torch.tensor(0.3, requires_grad=True)
x = torch.tensor([0.1, 0.2, 0.7])
y = torch.tensor([0.05, 0.1, 0.2])

loss = ((w * x - y) ** 2).mean()
print(loss.item())
loss.backward()
print(w.grad.item())
print(torch.tensor(0.1).item())
print(x.sum().item())
print(x.tolist())
