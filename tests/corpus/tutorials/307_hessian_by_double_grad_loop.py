import torch


def f(v):
    return v[0] ** 2 * v[1] + torch.exp(v[0] * v[1]) + v[1] ** 3


x = torch.tensor([0.5, -1.0], requires_grad=True)
y = f(x)
(g,) = torch.autograd.grad(y, x, create_graph=True)
print("gradient:", g)
rows = []
for i in range(x.numel()):
    (row,) = torch.autograd.grad(g[i], x, retain_graph=True)
    rows.append(row)
H = torch.stack(rows)
print("Hessian:")
print(H)
print(torch.autograd.functional.hessian(f, x.detach()))
print(torch.allclose(H, H.T))
