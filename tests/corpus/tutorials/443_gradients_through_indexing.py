import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
y = x[0] * 2 + x[1, :] ** 2
y.sum().backward()
print(x.grad)

x.grad = None
z = x[:, [0, 0, 2]].sum()
z.backward()
print(x.grad)

x.grad.zero_()
x[x > 3].sum().backward()
print(x.grad)

x.grad.zero_()
x.view(-1)[::2].sum().backward()
print(x.grad)

x.grad.zero_()
torch.cat([x, x[:1]]).pow(2).sum().backward()
print(x.grad)

x.grad.zero_()
a, b = x.split([1, 2], dim=1)
(a * 10 + b.sum(1, keepdim=True)).sum().backward()
print(x.grad)

x.grad.zero_()
torch.stack([x.sum(0), x.max(0).values]).sum().backward()
print(x.grad)

w = torch.zeros(3, requires_grad=True)
h = w.clone()
h[1] = 5.0
h = h * torch.tensor([1.0, 2.0, 3.0])
h.sum().backward()
print(h, w.grad)

v = torch.ones(4, requires_grad=True)
m = v.unsqueeze(0).expand(3, 4)
(m * torch.arange(3.0).unsqueeze(1)).sum().backward()
print(v.grad)

p = torch.tensor([3.0, -1.0, 2.0], requires_grad=True)
torch.where(p > 0, p ** 2, -p).sum().backward()
print(p.grad)
q = torch.tensor([[2.0, 7.0], [9.0, 4.0]], requires_grad=True)
q.max(dim=1).values.sum().backward()
print(q.grad)
r = torch.tensor([4.0, 1.0, 3.0], requires_grad=True)
r.sort().values[0].backward()
print(r.grad)
s = torch.tensor([1.0, 5.0, 3.0, 2.0], requires_grad=True)
s.topk(2).values.sum().backward()
print(s.grad)
