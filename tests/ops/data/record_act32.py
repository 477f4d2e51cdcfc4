"""Record PyTorch's float32 activation results and gradients (sigmoid, silu, gelu in both
forms, elu, selu, celu, softplus, logsigmoid, mish) and layer_norm's (values, and the
gradients of input, weight and bias) for tests/ops/test_act32_order.py (run
with torch 2.13 CPU, one thread: /work/torchenv/bin/python tests/ops/data/record_act32.py).
The inputs and upstream gradients are NumPy's, drawn from seeds, so the test rebuilds them
without torch; results are stored as float32 bit patterns."""

import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)


def draw(shape: list[int], seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Inputs over the interesting ranges (the thresholds of softplus at 20 and 5, where exp
    overflows or underflows, the far tails), and an upstream gradient."""
    rng = np.random.default_rng([*shape, seed])
    x = rng.standard_normal(shape) * rng.choice([0.5, 3.0, 12.0], shape)
    far = rng.random(shape) < 0.05
    x = np.where(far, rng.uniform(-110, 110, shape), x).astype(np.float32)
    g = rng.standard_normal(shape).astype(np.float32)
    return x, g


OPS = {
    "sigmoid": torch.sigmoid,
    "silu": F.silu,
    "gelu": F.gelu,
    "gelu_tanh": lambda t: F.gelu(t, approximate="tanh"),
    "elu": F.elu,
    "selu": F.selu,
    "celu": lambda t: F.celu(t, alpha=0.7),
    "softplus": F.softplus,
    "softplus_b2": lambda t: F.softplus(t, beta=2.0, threshold=5.0),
    "logsigmoid": F.logsigmoid,
    "mish": F.mish,
}
SHAPES = [[1], [5], [31], [32], [45], [77], [3, 67], [200]]


def bits(t: torch.Tensor) -> list[int]:
    return [int(b) for b in t.detach().numpy().reshape(-1).view(np.uint32)]


cases = []
for name, f in OPS.items():
    for shape in SHAPES:
        x, g = draw(shape, 0)
        leaf = torch.tensor(x, requires_grad=True)
        y = f(leaf)
        y.backward(torch.tensor(g))
        cases.append({"op": name, "shape": shape, "y": bits(y), "grad": bits(leaf.grad)})


def draw_ln(shape: list[int], seed: int) -> tuple[np.ndarray, ...]:
    """Rows with offsets and scales (the moments' cancellation), weight, bias, upstream."""
    rng = np.random.default_rng([*shape, seed, 3])
    lead = (*shape[:-1], 1)
    x = rng.standard_normal(shape) * rng.choice([0.1, 1.0, 10.0], lead) + rng.choice(
        [0.0, 3.0, -50.0], lead
    )
    w = rng.uniform(0.5, 1.5, shape[-1])
    b = rng.standard_normal(shape[-1])
    g = rng.standard_normal(shape)
    return tuple(a.astype(np.float32) for a in (x, w, b, g))


LN_SHAPES = [[3, 5], [4, 17], [2, 3, 64], [2, 300], [3, 768], [2, 1000], [1, 4097]]
ln_cases = []
for shape in LN_SHAPES:
    for affine in (False, True):
        x, w, b, g = draw_ln(shape, 0)
        leaf = torch.tensor(x, requires_grad=True)
        wt = torch.tensor(w, requires_grad=True) if affine else None
        bt = torch.tensor(b, requires_grad=True) if affine else None
        y = F.layer_norm(leaf, [shape[-1]], wt, bt)
        y.backward(torch.tensor(g))
        case = {"shape": shape, "affine": affine, "y": bits(y), "grad": bits(leaf.grad)}
        if affine:
            case["grad_w"], case["grad_b"] = bits(wt.grad), bits(bt.grad)
        ln_cases.append(case)

out = Path(__file__).parent / "act32_results.json"
data = {"torch": torch.__version__, "cases": cases, "layer_norm": ln_cases}
out.write_text(json.dumps(data, separators=(",", ":")))
print(f"{len(cases)} cases -> {out}")
