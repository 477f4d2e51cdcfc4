import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
    with torch.enable_grad():
        z = x * 3
print(y.requires_grad, z.requires_grad, torch.is_grad_enabled())

torch.set_grad_enabled(False)
a = x * 2
torch.set_grad_enabled(True)
b = x * 2
print(a.requires_grad, b.requires_grad)

for train in (True, False):
    with torch.set_grad_enabled(train):
        c = x.sin()
    print(train, c.requires_grad, torch.is_grad_enabled())

with torch.inference_mode():
    d = x.exp()
print(d.requires_grad)


@torch.no_grad()
def update(w, lr):
    w -= lr * w.grad
    return w


@torch.enable_grad()
def grad_of(t):
    return (t * t).sum()


w = torch.tensor([1.0, -1.0], requires_grad=True)
(w**2).sum().backward()
update(w, 0.25)
print(w, w.grad)
with torch.no_grad():
    s = grad_of(w)
print(s.requires_grad)

e = torch.ones(3)
f = g = e
f += 1
print(g, f is g)
