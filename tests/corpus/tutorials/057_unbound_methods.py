import torch

x = torch.tensor([[0.5, -1.0], [2.0, 0.0]], requires_grad=True)

y = torch.Tensor.tanh(x)
s = torch.Tensor.sum(y, dim=0)
print(y)
print(s)
torch.Tensor.backward(s.sum())
print(x.grad)

print(torch.Tensor.add(torch.ones(2), 2))
print(torch.Tensor.mean(torch.arange(4.0)))
print(torch.Tensor.exp(torch.zeros(2)))
