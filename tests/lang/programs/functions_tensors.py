import torch


def mlp(x, weights, act=torch.tanh, *, scale=1.0):
    for w in weights:
        x = act(w @ x)
    return x * scale


ws = [torch.ones(2, 2) * 0.5, torch.eye(2)]
x = torch.tensor([1.0, -1.0], requires_grad=True)
out = mlp(x, ws, scale=2.0)
out.sum().backward(retain_graph=True)
print(out, x.grad)

square = lambda t: t**2
compose = lambda f, g: lambda t: f(g(t))
h = compose(square, torch.sin)
print(h(torch.tensor(0.5)))

outs = [f(x) for f in (torch.sin, torch.cos, square)]
print([o.shape for o in outs], sum(o.sum() for o in outs))
grads = {}
for name, f in {"sin": torch.sin, "square": square}.items():
    y = f(x).sum()
    (g,) = torch.autograd.grad(y, x)
    grads[name] = [round(v, 4) for v in g.tolist()]
print(grads)
jac = torch.stack([torch.autograd.grad(out[i], x, retain_graph=True)[0] for i in range(2)])
print(jac)
first, *rest = [t.item() for t in x.detach()]
print(first, rest)
total = 0.0
i = 0
while total < 5:
    total += x.detach().abs().sum().item()
    i += 1
print(i, total)
