import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0])
c = a * b
d = c.sum()

for name, t in [("a", a), ("b", b), ("c", c), ("d", d)]:
    print(name, t.requires_grad, t.is_leaf, t.grad_fn is not None)

d.backward()
print(a.grad)
print(b.grad)
