import torch

x = torch.tensor([0.5, 1.0, 2.0, 4.0], requires_grad=True)
ops = {
    "exp2": torch.exp2, "expm1": torch.expm1, "log2": torch.log2, "log10": torch.log10,
    "log1p": torch.log1p, "rsqrt": torch.rsqrt, "reciprocal": torch.reciprocal,
    "square": torch.square, "sqrt": torch.sqrt,
}
for name, op in ops.items():
    x.grad = None
    y = op(x)
    y.sum().backward()
    print(f"{name:>10}: {y.detach()}  grad {x.grad}")

print(x.detach().square().rsqrt())
print(torch.expm1(torch.tensor([1e-10, 0.0])), torch.log1p(torch.tensor([1e-10])))
