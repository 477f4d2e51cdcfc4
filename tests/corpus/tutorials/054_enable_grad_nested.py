import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)

with torch.no_grad():
    a = x * 2
    with torch.enable_grad():
        b = x * 2
    c = x * 2

print(a.requires_grad, b.requires_grad, c.requires_grad)
b.sum().backward()
print(x.grad)


@torch.enable_grad()
def grad_inside(t):
    y = (t ** 3).sum()
    return torch.autograd.grad(y, t)[0]


with torch.no_grad():
    print(grad_inside(x))
print(torch.is_grad_enabled())
