import torch

x = torch.tensor([-0.5, 0.0, 0.25, 0.75], requires_grad=True)
funcs = {"asin": torch.asin, "acos": torch.acos, "atan": torch.atan, "sinh": torch.sinh,
         "cosh": torch.cosh, "tanh": torch.tanh, "asinh": torch.asinh, "atanh": torch.atanh}
for name, fn in funcs.items():
    y = fn(x)
    (g,) = torch.autograd.grad(y.sum(), x)
    print(f"{name:6s} {y.detach()} {g}")

z = torch.tensor([1.0, 1.5, 3.0], requires_grad=True)
torch.acosh(z).sum().backward()
print(torch.acosh(z), z.grad)

yv = torch.tensor([1.0, -1.0, 0.0, 2.0], requires_grad=True)
xv = torch.tensor([1.0, 1.0, -1.0, 0.0], requires_grad=True)
angle = torch.atan2(yv, xv)
print(angle)
angle.sum().backward()
print(yv.grad, xv.grad)
