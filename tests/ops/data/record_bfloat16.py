"""Record PyTorch 2.13's bfloat16 results for tests/ops/test_bfloat16.py (run with torch):

    /work/torchenv/bin/python tests/ops/data/record_bfloat16.py

Each case: an expression (the same text test_bfloat16.py evaluates with gradcli's tensors), its
inputs and PyTorch's output as bfloat16 bit patterns (uint16), and for the differentiable
ones the gradient of out.sum() (or of (out * ramp).sum()) with respect to the first input."""

import base64
import json
from pathlib import Path

import torch

torch.manual_seed(2024)

# name -> (expression of a, b (and w, bias), input kinds, whether to take a gradient)
CASES = {
    "add": ("a + b", "nn", True),
    "sub": ("a - b", "nn", True),
    "mul": ("a * b", "nn", True),
    "div": ("a / b", "nz", True),
    "add_num": ("a + 0.1", "n", True),
    "sub_num": ("a - 0.37", "n", True),
    "rsub_num": ("2.5 - a", "n", True),
    "mul_num": ("a * 0.1", "n", True),
    "mul_num3": ("a * 3.3", "n", True),
    "div_num": ("a / 3", "n", True),
    "rdiv_num": ("1.7 / a", "z", True),
    "pow2": ("a ** 2", "n", True),
    "pow_half": ("a ** 0.5", "p", False),
    "pow3": ("a ** 3", "n", True),
    "pow_m2": ("a ** -2", "z", True),
    "pow_m1": ("a ** -1", "z", True),
    "pow_num": ("a ** 1.3", "p", True),
    "neg": ("-a", "n", True),
    "abs": ("a.abs()", "n", True),
    "exp": ("a.exp()", "n", True),
    "log": ("a.log()", "p", True),
    "sqrt": ("a.sqrt()", "p", True),
    "sin": ("a.sin()", "n", True),
    "cos": ("a.cos()", "n", True),
    "tanh": ("a.tanh()", "n", True),
    "sigmoid": ("a.sigmoid()", "n", True),
    "relu": ("a.relu()", "n", True),
    "reciprocal": ("a.reciprocal()", "z", True),
    "maximum": ("a.maximum(b)", "nn", True),
    "minimum": ("a.minimum(b)", "nn", True),
    "clamp": ("a.clamp(-0.33, 0.77)", "n", True),
    "max": ("a.max()", "n", True),
    "floor": ("(a * 50).floor()", "n", True),
    "ceil": ("(a * 50).ceil()", "n", True),
    "trunc": ("(a * 50).trunc()", "n", True),
    "sign": ("a.sign()", "n", True),
    "amax_rows": ("a.reshape(-1, 10).amax(1)", "n", True),
    "sum": ("a.sum()", "n", True),
    "sum_rows": ("a.reshape(-1, 10).sum(1)", "n", True),
    "sum_cols": ("a.reshape(-1, 10).sum(0)", "n", True),
    "mean": ("a.mean()", "n", True),
    "mean_rows": ("a.reshape(-1, 10).mean(1)", "n", True),
    "add_alpha": ("a.add(b, alpha=0.3)", "nn", False),
    "to_float": ("a.float() * 1.0001", "n", False),
}
SIZES = (1, 10, 40, 100, 1000)
LONG = 5000  # the sums and means also of this many
# matmul (m, k, n) and linear shapes
MATMUL = ((2, 3, 4), (4, 8, 5), (16, 32, 16), (3, 100, 7), (64, 64, 64), (1, 256, 1), (5, 1000, 3))


def bits(t: torch.Tensor) -> str:
    """The bfloat16 bit patterns, little-endian uint16, in base64."""
    raw = t.detach().contiguous().view(torch.int16).flatten().numpy().astype("<i2").tobytes()
    return base64.b64encode(raw).decode()


def draw(kind: str, n: int) -> torch.Tensor:
    x = torch.randn(n) * 2
    if kind == "p":
        x = x.abs() + 0.01
    elif kind == "z":
        x = torch.where(x.abs() < 0.05, torch.full_like(x, 0.5), x)
    return x.bfloat16()


def ramp(out: torch.Tensor) -> torch.Tensor:
    return (torch.arange(out.numel()).reshape(out.shape) % 7 - 3).bfloat16()


def main() -> None:
    cases = []
    for name, (expr, kinds, grad) in CASES.items():
        for n in SIZES + ((LONG,) if name.startswith(("sum", "mean")) else ()):
            if "reshape" in expr and n % 10:
                continue
            ins = [draw(k, n) for k in kinds]
            a = ins[0].clone().requires_grad_(grad)
            b = ins[1] if len(ins) > 1 else None
            out = eval(expr)
            case = {
                "name": name,
                "expr": expr,
                "inputs": [bits(t) for t in ins],
                "out": bits(out),
                "dtype": str(out.dtype),
            }
            if grad:
                (out * ramp(out)).sum().backward()
                case["grad"] = bits(a.grad)
            cases.append(case)
    for m, k, n in MATMUL:
        a = (torch.randn(m, k)).bfloat16().requires_grad_()
        b = torch.randn(k, n).bfloat16()
        out = a @ b
        (out * ramp(out)).sum().backward()
        cases.append(
            {
                "name": "matmul",
                "expr": "a @ b",
                "shapes": [[m, k], [k, n]],
                "inputs": [bits(a), bits(b)],
                "out": bits(out),
                "dtype": str(out.dtype),
                "grad": bits(a.grad),
            }
        )
        w = torch.randn(n, k).bfloat16().requires_grad_()
        bias = torch.randn(n).bfloat16()
        x = torch.randn(m, k).bfloat16()
        out = torch.nn.functional.linear(x, w, bias)
        (out * ramp(out)).sum().backward()
        cases.append(
            {
                "name": "linear",
                "expr": "F.linear(b, a, c)",
                "shapes": [[n, k], [m, k], [n]],
                "inputs": [bits(w), bits(x), bits(bias)],
                "out": bits(out),
                "dtype": str(out.dtype),
                "grad": bits(w.grad),
            }
        )
    gen = torch.Generator().manual_seed(5)
    for _ in range(40):
        s, e = (torch.randn(2, generator=gen) * 4).tolist()
        n = int(torch.randint(2, 60, (1,), generator=gen))
        out = torch.linspace(s, e, n, dtype=torch.bfloat16)
        cases.append(
            {
                "name": "linspace",
                "expr": f"linspace({s!r}, {e!r}, {n})",
                "inputs": [],
                "out": bits(out),
                "dtype": str(out.dtype),
            }
        )
    path = Path(__file__).parent / "bfloat16.json"
    path.write_text(json.dumps(cases, separators=(",", ":")) + "\n")
    print(f"{len(cases)} cases -> {path}")


if __name__ == "__main__":
    main()
