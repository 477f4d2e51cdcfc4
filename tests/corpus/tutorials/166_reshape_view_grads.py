import torch

x = torch.arange(6.0, requires_grad=True)
m = x.view(2, 3)
t = m.t()
r = t.reshape(-1)
print(m)
print(t)
print(r)
print(m.is_contiguous(), t.is_contiguous())
(r * torch.arange(6.0)).sum().backward()
print(x.grad)

x.grad = None
y = x.reshape(3, 2).unsqueeze(0).permute(2, 1, 0).squeeze()
print(y.shape)
y[0].sum().backward()
print(x.grad)
print(x.view(-1, 2).flatten().shape, x.unsqueeze(1).shape)
