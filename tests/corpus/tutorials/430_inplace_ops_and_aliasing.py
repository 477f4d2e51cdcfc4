import torch

a = torch.tensor([1.0, 2.0, 3.0])
b = a
b += 1
print(a, b, a is b)
c = a.clone()
c.mul_(10)
print(a, c)
v = a[1:]
v.zero_()
print(a)
w = a.view(3, 1)
w[2, 0] = 42
print(a)
d = a.detach()
d[0] = -5
print(a)
e = a.numpy()
e[1] = 7
print(a)
a = a + 1
print(b)
x = torch.ones(2, 2)
y = x.add_(1).mul_(3)
print(x, y is x)
x.sub_(1).div_(2)
print(x)
x.clamp_(min=2.5)
print(x)
x.pow_(2).sqrt_().neg_()
print(x)
t = torch.arange(4)
t.copy_(torch.tensor([9, 8, 7, 6]))
print(t)
t.copy_(torch.tensor(0))
print(t)
i = torch.tensor([1, 2, 3])
try:
    i.div_(2)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    i.mul_(2.7)
except RuntimeError as e:
    print("RuntimeError:", e)
i.mul_(2)
print(i)
