# The elementary functions of complex tensors and their gradients (each holomorphic: the
# gradient is the upstream gradient times the conjugate of the derivative).
import torch

z = torch.tensor([0.5 + 1.0j, -1.2 + 0.3j, 0.25 - 0.75j], requires_grad=True)
for name in [
    "exp",
    "log",
    "sqrt",
    "sin",
    "cos",
    "tan",
    "sinh",
    "cosh",
    "tanh",
    "sigmoid",
    "log2",
    "log10",
    "rsqrt",
    "expm1",
    "log1p",
    "asin",
    "acos",
    "atan",
    "reciprocal",
]:
    out = getattr(torch, name)(z)
    (g,) = torch.autograd.grad(out.real.sum() + 2 * out.imag.sum(), z)
    print(f"{name:>10}: {out.detach()}")
    print(f"{'grad':>10}: {g}")
w = z.detach().to(torch.complex128).requires_grad_()
y = (w.sin() * w.exp() / (1 + w * w)).sum()
y.real.backward()
print(y, w.grad, sep="\n")
print(z.square(), z**3, z**-1, z.sgn(), z.norm(), sep="\n")
