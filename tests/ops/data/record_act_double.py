"""Record PyTorch's gradients taken with create_graph=True through sigmoid, tanh and softplus
(and silu, which PyTorch differentiates through sigmoid then), and the first, second and
third derivatives built on them, for tests/ops/test_act_double_backward.py (run with torch 2.13
CPU, one thread: /work/torchenv/bin/python tests/ops/data/record_act_double.py).

Two kinds of case: "chain" starts from x (float32): g = grad(f(x), x, v1, create_graph=True),
h = grad(g, x, v2, create_graph=True), t = grad(h, x, v3), with grad_fn names; "kernel" calls
the backward kernel itself on given (grad_output, y or x) in float32 and float64, and
differentiates it in both inputs. Inputs are NumPy's, drawn from seeds, so the test rebuilds
them without torch; results are stored as the hex of their bytes (little-endian).

Record on a CPU with AVX-512, as the rest of the recorded data: the float32 exp of SLEEF's
AVX2 build (softplus' kernel, the chains) gives other last bits."""

import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)

CHAIN = {
    "sigmoid": torch.sigmoid,
    "tanh": torch.tanh,
    "softplus": F.softplus,
    "softplus_b2": lambda t: F.softplus(t, beta=2.0, threshold=5.0),
    "softplus_b05": lambda t: F.softplus(t, beta=0.5, threshold=1.0),
    "silu": F.silu,
}
SHAPES = [[n] for n in range(1, 41)] + [[3, 5], [5, 3, "t"], [2, 3, 7], [4, 17], [1, 33], [100]]


def draw(shape: list, seed: int, count: int, dtype=np.float32) -> list[np.ndarray]:
    """x over the interesting ranges (both sides of softplus' thresholds, the tails), and
    `count - 1` upstream gradients; a shape ending in "t" is drawn transposed (a
    non-contiguous input)."""
    dims = [d for d in shape if d != "t"]
    rng = np.random.default_rng([*dims, seed])
    x = rng.standard_normal(dims) * rng.choice([0.5, 3.0, 8.0], dims)
    far = rng.random(dims) < 0.05
    x = np.where(far, rng.uniform(-40, 40, dims), x)
    out = [x] + [rng.standard_normal(dims) for _ in range(count - 1)]
    out = [a.astype(dtype) for a in out]
    if shape[-1] == "t":
        out = [a.T for a in out]
    return out


def like_activation(a: np.ndarray, op: str) -> np.ndarray:
    """Values in tanh's range (-1, 1) or sigmoid's (0, 1), from `a` by IEEE arithmetic only."""
    y = a / (1 + np.abs(a))
    return y if op.startswith("tanh") else (0.5 + y / 2).astype(a.dtype)


def hexa(t: torch.Tensor) -> str:
    return np.ascontiguousarray(t.detach().numpy()).tobytes().hex()


def name(t: torch.Tensor):
    return None if t.grad_fn is None else type(t.grad_fn).__name__


chain = []
for op, f in CHAIN.items():
    for shape in SHAPES:
        x, v1, v2, v3 = draw(shape, 0, 4)
        leaf = torch.tensor(x, requires_grad=True)
        y = f(leaf)
        (g,) = torch.autograd.grad(y, leaf, torch.tensor(v1), create_graph=True)
        (h,) = torch.autograd.grad(g, leaf, torch.tensor(v2), create_graph=True)
        (t,) = torch.autograd.grad(h, leaf, torch.tensor(v3))
        chain.append(
            {
                "op": op,
                "shape": shape,
                "g_fn": name(g),
                "h_fn": name(h),
                "g": hexa(g),
                "h": hexa(h),
                "t": hexa(t),
            }
        )

# piecewise-linear activations (their backward kernels' own nodes: the gradient requires grad
# through x, its second derivative is zeros) and weighted mse losses: g with create_graph=True,
# its grad_fn name, and h = grad(g, x, v2)
TARGET = np.linspace(-1.0, 1.0, 7).astype(np.float32)
SECOND = {
    "hardtanh": lambda t: F.hardtanh(t, -1.5, 2.0),
    "relu6": F.relu6,
    "leaky_relu": lambda t: F.leaky_relu(t, 0.2),
    "softshrink": lambda t: F.softshrink(t, 0.7),
    "hardshrink": lambda t: F.hardshrink(t, 0.7),
    "threshold": lambda t: F.threshold(t, 0.3, -2.0),
    "hardswish": F.hardswish,
    "mse_mean": lambda t: F.mse_loss(t, torch.tensor(TARGET).expand_as(t)) * 0.3,
    "mse_sum": lambda t: F.mse_loss(t, torch.tensor(TARGET).expand_as(t), reduction="sum") * 0.3,
    "mse_none": lambda t: F.mse_loss(t, torch.tensor(TARGET).expand_as(t), reduction="none"),
}
second = []
for op, f in SECOND.items():
    for shape in [[7], [3, 7], [5, 7]]:
        x, v1, v2 = draw(shape, 2, 3)
        leaf = torch.tensor(x, requires_grad=True)
        y = f(leaf)
        up = torch.tensor(v1).reshape(-1)[: y.numel()].reshape(y.shape)
        (g,) = torch.autograd.grad(y, leaf, up, create_graph=True)
        (h,) = torch.autograd.grad(g, leaf, torch.tensor(v2))
        second.append({"op": op, "shape": shape, "g_fn": name(g), "g": hexa(g), "h": hexa(h)})

# the other fused activation kernels (elu, selu, celu, gelu both forms, logsigmoid; mish, whose
# create_graph pass is a composition), on fewer
# shapes (the vector body, the tail, both, non-contiguous)
CHAIN2 = {
    "elu": F.elu,
    "selu": F.selu,
    "celu": lambda t: F.celu(t, alpha=0.7),
    "gelu": F.gelu,
    "gelu_tanh": lambda t: F.gelu(t, approximate="tanh"),
    "logsigmoid": F.logsigmoid,
    "mish": F.mish,
}
SHAPES2 = [[1], [5], [16], [17], [31], [32], [33], [40], [3, 5], [5, 3, "t"], [4, 17]]
for op, f in CHAIN2.items():
    for shape in SHAPES2:
        x, v1, v2, v3 = draw(shape, 3, 4)
        leaf = torch.tensor(x, requires_grad=True)
        (g,) = torch.autograd.grad(f(leaf), leaf, torch.tensor(v1), create_graph=True)
        (h,) = torch.autograd.grad(g, leaf, torch.tensor(v2), create_graph=True)
        (t,) = torch.autograd.grad(h, leaf, torch.tensor(v3))
        chain.append(
            {
                "op": op,
                "shape": shape,
                "seed": 3,
                "g_fn": name(g),
                "h_fn": name(h),
                "g": hexa(g),
                "h": hexa(h),
                "t": hexa(t),
            }
        )

KERNELS = {
    "sigmoid_backward": (lambda go, a: torch.ops.aten.sigmoid_backward(go, a), "y"),
    "tanh_backward": (lambda go, a: torch.ops.aten.tanh_backward(go, a), "y"),
    "softplus_backward": (lambda go, a: torch.ops.aten.softplus_backward(go, a, 1.0, 20.0), "x"),
    "softplus_backward_b2": (lambda go, a: torch.ops.aten.softplus_backward(go, a, 2.0, 5.0), "x"),
}
kernel = []
for op, (f, kind) in KERNELS.items():
    for dt in (np.float32, np.float64):
        for shape in [[1], [7], [8], [9], [16], [17], [31], [32], [33], [40], [4, 17]]:
            a, go, h = draw(shape, 1, 3, dt)
            if kind == "y":  # a result of sigmoid / tanh (made by arithmetic alone: NumPy's
                # exp and tanh give other last bits on other CPUs, the recorded bits would not)
                a = like_activation(a, op)
            ta = torch.tensor(a, requires_grad=True)
            tg = torch.tensor(go, requires_grad=True)
            out = f(tg, ta)
            dg, da = torch.autograd.grad(out, (tg, ta), torch.tensor(h))
            kernel.append(
                {
                    "op": op,
                    "dtype": np.dtype(dt).name,
                    "shape": shape,
                    "out": hexa(out),
                    "d_grad": hexa(dg),
                    "d_in": hexa(da),
                }
            )

dest = Path(__file__).parent / "act_double_results.json"
data = {"torch": torch.__version__, "chain": chain, "kernel": kernel, "second": second}
dest.write_text(json.dumps(data, separators=(",", ":")))
print(f"{len(chain)} chain and {len(kernel)} kernel cases -> {dest}")
