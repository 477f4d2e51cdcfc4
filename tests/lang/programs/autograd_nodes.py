import torch

# type() of a grad_fn is its class, named after the node
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
print(type(y.grad_fn), type(y.grad_fn).__name__)
print(type(y.grad_fn.next_functions[0][0]).__name__)
print(type(y.grad_fn) == type((x * 3).grad_fn), type(y.grad_fn) == type((x + 3).grad_fn))
print(type(x.grad_fn))


# one grad_fn for all outputs of a custom Function, next_functions number them
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2, a * 3

    @staticmethod
    def backward(ctx, g1, g2):
        return g1 * 2 + g2 * 3


p, q = Two.apply(x)
print(type(p.grad_fn), p.grad_fn is q.grad_fn, p.grad_fn.name())
z = p + q
print([(f.name(), i) for f, i in z.grad_fn.next_functions])
print(z.grad_fn.next_functions[1][0] is q.grad_fn)
z.sum().backward()
print(x.grad)

# the view PyTorch's indexing records last
m = torch.ones(2, 3, 4, requires_grad=True)
for v in [m[0], m[:, 1], m[:, 1:], m[:], m[:, :], m[...], m[None], m[0, None], m[[0, 1]],
          m[0, [0, 1]], m[1:, 0], m[:, 0:10], m[:, -3:], m[torch.tensor(1)], m[m > 0]]:
    print(v.grad_fn.name(), end=" ")
print()

# requires_grad on a non-leaf: the method's message and the attribute's
h = x * 2
try:
    h.requires_grad_(False)
except RuntimeError as e:
    print(e)
try:
    h.requires_grad = False
except RuntimeError as e:
    print(e)

# x ** 1's derivative keeps x.pow(0): higher derivatives are zeros, not errors
t = torch.tensor(1.5, requires_grad=True)
d = t ** 3
for n in range(4):
    (d,) = torch.autograd.grad(d, t, create_graph=True)
    print(n + 1, d.item(), d.grad_fn is not None)
(g,) = torch.autograd.grad((t ** 0) * torch.tensor(float("nan")), t)
print(g)
try:
    h.requires_grad = True
except RuntimeError as e:
    print(e)
h.requires_grad_(True)
print(h.requires_grad)
