import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
seen = []


def record(grad):
    seen.append(grad.clone())


def double(grad):
    return grad * 2


h1 = x.register_hook(record)
y = x * x
y.register_hook(lambda g: print("grad at y:", g))
z = (y * torch.tensor([1.0, 0.5, 0.25])).sum()
z.backward()
print("x.grad:", x.grad)
print("seen:", seen)

h1.remove()
h2 = x.register_hook(double)
x.grad = None
(x ** 2).sum().backward()
print("doubled:", x.grad)
h2.remove()
x.grad.zero_()
(x ** 2).sum().backward()
print("plain:", x.grad, len(seen))
