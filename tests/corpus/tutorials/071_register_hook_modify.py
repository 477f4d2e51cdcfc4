import torch

x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
y = x ** 2


def double(grad):
    return grad * 2


y.register_hook(double)
y.sum().backward()
print(x.grad)  # 2 * 2x

# a hook that clips gradients on a leaf
w = torch.tensor([3.0, -4.0], requires_grad=True)
w.register_hook(lambda g: g.clamp(-1, 1))
(w ** 3).sum().backward()
print(w.grad)

# hooks run in the order they were registered
z = torch.tensor(1.0, requires_grad=True)
z.register_hook(lambda g: g + 1)
z.register_hook(lambda g: g * 10)
(5 * z).backward()
print(z.grad)
