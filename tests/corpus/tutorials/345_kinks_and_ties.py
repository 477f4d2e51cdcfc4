import torch

x = torch.tensor([0.0, 0.0, 1.0, -1.0], requires_grad=True)
for name, fn in [
    ("relu", torch.relu),
    ("abs", torch.abs),
    ("sign", torch.sign),
    ("clamp", lambda t: t.clamp(min=0.0, max=1.0)),
    ("sqrt", torch.sqrt),
    ("pow0.5", lambda t: t ** 0.5),
]:
    x.grad = None
    fn(x).sum().backward()
    print(f"{name:7s}", x.grad)

v = torch.tensor([2.0, 5.0, 5.0, 1.0], requires_grad=True)
v.max().backward()
print("max   ", v.grad)
v.grad = None
v.amax().backward()
print("amax  ", v.grad)
v.grad = None
v.max(dim=0).values.backward()
print("maxdim", v.grad)
v.grad = None
torch.norm(torch.zeros(3, requires_grad=True))
z = torch.zeros(3, requires_grad=True)
z.norm().backward()
print("norm0 ", z.grad)
m = torch.tensor([1.0, 3.0], requires_grad=True)
torch.maximum(m, torch.tensor([1.0, 2.0])).sum().backward()
print("maxim ", m.grad)
