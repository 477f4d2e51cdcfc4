import torch

x = torch.tensor(2.0, requires_grad=True)
y = x ** 4
derivs = [y]
for n in range(1, 6):
    (d,) = torch.autograd.grad(derivs[-1], x, create_graph=True)
    derivs.append(d)
    print(f"d^{n}y/dx^{n} = {d.item()} grad_fn={d.grad_fn is not None}")

t = torch.tensor(0.3, requires_grad=True)
f = torch.sin(t)
for n in range(4):
    (f,) = torch.autograd.grad(f, t, create_graph=True)
    print(n + 1, round(f.item(), 6))
