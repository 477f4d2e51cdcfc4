# clamp with tensor bounds (broadcast, gradients to x and to the bounds, in place), and the
# bounds PyTorch refuses: a list, a string, a number with a tensor.
import torch

x = torch.tensor([-2.0, 0.5, 3.0, 1.0, 1.0, float("nan")], requires_grad=True)
lo = torch.tensor([0.0, 0.0, 0.0, 1.0, 2.0, 0.0], requires_grad=True)
hi = torch.tensor([1.0, 1.0, 1.0, 1.0, 1.0, 1.0], requires_grad=True)
y = torch.clamp(x, lo, hi)
print(y)
y.sum().backward()
print(x.grad, lo.grad, hi.grad)
z = x.clamp(min=torch.zeros(2, 1))
print(z.shape, z.grad_fn.name())
w = torch.clamp_min(x, torch.tensor(0.5))
print(w, x.clamp_max(torch.tensor(0.5)))
v = x.clamp(0, 1)
print(v, x.clamp(min=0), x.clamp_min(0))
k = torch.tensor([1, 5, -3])
print(
    k.clamp(min=torch.tensor(0.5)),
    k.clamp(0, 2),
    k.clamp(torch.tensor([0, 0, 0]), torch.tensor([2, 2, 2])),
)
a = torch.ones(3)
a.clamp_(min=torch.tensor([2.0, 0.0, 3.0]))
print(a)
try:
    a.clamp_(min=torch.zeros(2, 3))
except RuntimeError as e:
    print(e)
for bad in ("[0.0]", "'a'"):
    try:
        a.clamp(min=[0.0]) if bad == "[0.0]" else a.clamp(min="a")
    except TypeError as e:
        print(str(e).splitlines()[0])
try:
    a.clamp(min=torch.zeros(3), max=1)
except TypeError as e:
    print(str(e).splitlines()[0])
try:
    a.clamp_min_([0.0])
except TypeError as e:
    print(str(e).splitlines()[0])
b = torch.tensor([0.5, 2.0], requires_grad=True)
c = b * 1
c.clamp_(max=torch.tensor([1.0, 1.0]))
c.sum().backward()
print(c, b.grad)
