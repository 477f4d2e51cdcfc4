# Complex sums as PyTorch's kernel computes them (a + alpha * b with a complex alpha): a
# negative-zero imaginary part added to itself, differences, infinities, in-place sums, and
# gradients of complex leaves accumulated over two backward passes.
import torch

re = torch.tensor([2.0, 1.0, 0.0, -1.5])
im = torch.tensor([-0.0, -0.0, -0.0, 0.0])
x = torch.complex(re, im)
y = torch.complex(torch.tensor([2.0, float("inf"), 3.0, -1.5]), torch.tensor([-0.0, 0.0, -0.0, -0.0]))
for name, v in [("x + x", x + x), ("x + y", x + y), ("x - y", x - y), ("y - x", y - x),
                ("add alpha", torch.add(x, y, alpha=2)), ("sub alpha", torch.sub(x, y, alpha=3)),
                ("x + 2", x + 2), ("2 - x", 2 - x), ("x + real", x + re)]:
    print(name, torch.view_as_real(v).tolist())
z = x.clone()
z.add_(y)
z.sub_(x)
print(torch.view_as_real(z).tolist())
d = x.to(torch.complex128) - x.to(torch.complex128)
print(d)
w = torch.complex(torch.tensor([1.0, -2.0]), torch.tensor([-0.0, 0.5])).requires_grad_()
for _ in range(2):
    loss = (w * w.conj()).real.sum() + (w - w.detach()).abs().sum()
    loss.backward()
print(w.grad)
print(torch.view_as_real(w.grad).tolist())
