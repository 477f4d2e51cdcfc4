# Mixed precision by hand: float16 tensors combined with Python numbers (learning rates,
# scales, interpolation weights). PyTorch's CPU kernels compute these in float32 and round
# once; this prints a checksum of the float16 bits of each result and gradient, for several
# sizes (the kernels' vectorised loop and its tail), and the grad_fn chain of each.
import torch

torch.manual_seed(7)


def bits(t):
    # a checksum of the float16 bit patterns, position-weighted
    codes = t.detach().reshape(-1).view(torch.int16).tolist()
    return sum((i + 1) * c for i, c in enumerate(codes)) % 1_000_003


ops = {
    "x * 0.1": lambda x, e: x * 0.1,
    "0.1 * x": lambda x, e: 0.1 * x,
    "x + 0.1": lambda x, e: x + 0.1,
    "x - 0.1": lambda x, e: x - 0.1,
    "0.1 - x": lambda x, e: 0.1 - x,
    "x / 0.3": lambda x, e: x / 0.3,
    "x ** 2.1": lambda x, e: x.abs() ** 2.1,
    "clamp": lambda x, e: torch.clamp(x, -0.3, 0.7),
    "where": lambda x, e: torch.where(x > 0, x, 0.1),
    "lerp": lambda x, e: torch.lerp(x, e, 0.3),
    "lerp 0.7": lambda x, e: torch.lerp(x, e, 0.7),
    "addcdiv": lambda x, e: torch.addcdiv(x, x, e + 1, value=0.1),
    "add alpha": lambda x, e: torch.add(x, e, alpha=0.1),
    "sub alpha": lambda x, e: torch.sub(x, e, alpha=0.3),
    "add_ alpha": lambda x, e: x.detach().clone().add_(e, alpha=-0.01),
}
for n in (1, 5, 16, 31, 32, 33, 100, 400):
    x = (torch.randn(n) * 3).half().requires_grad_()
    e = (torch.rand(n) * 2).half()
    row = []
    for name, f in ops.items():
        y = f(x, e)
        if y.requires_grad:
            y.sum().backward()
            row.append(f"{name}={bits(y)}/{bits(x.grad)}")
            x.grad = None
        else:
            row.append(f"{name}={bits(y)}")
    print(n, " ".join(row))

x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float16, requires_grad=True)
e = torch.tensor([0.5, 0.25, 2.0], dtype=torch.float16)
for name in (
    "x * 0.1",
    "0.1 * x",
    "x + 0.1",
    "x - 0.1",
    "0.1 - x",
    "x / 0.3",
    "x ** 2.1",
    "clamp",
    "add alpha",
    "sub alpha",
):
    y = ops[name](x, e)
    if y.grad_fn is not None:
        chain = [
            type(fn).__name__ if fn is not None else None for fn, _ in y.grad_fn.next_functions
        ]
        print(name, y, y.grad_fn.name(), chain)
