import torch

# solve x = cos(a * x) by iteration, then get dx/da by the implicit function theorem
a = torch.tensor(0.8, requires_grad=True)
x = torch.tensor(0.5)
n = 0
while True:
    x_new = torch.cos(a.detach() * x)
    n += 1
    if abs(x_new - x) < 1e-6 or n > 100:
        break
    x = x_new
print(n, round(x.item(), 5))

x = x.requires_grad_()
g = torch.cos(a * x)
dg_dx, dg_da = torch.autograd.grad(g, (x, a))
dx_da = dg_da / (1 - dg_dx)
print(f"dx/da = {dx_da.item():.5f}")
