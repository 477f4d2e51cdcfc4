"""Record PyTorch's float32 results for tests/ops/test_float32_order.py (run with torch 2.13
CPU: /work/torchenv/bin/python tests/ops/data/record_float32.py). The inputs are NumPy's,
drawn from seeds, so the test rebuilds them without torch; the results are stored as float32
bit patterns."""

import json
from pathlib import Path

import numpy as np
import torch

torch.set_num_threads(1)


def draw(shape: list[int], seed: int) -> np.ndarray:
    return np.random.default_rng([*shape, seed]).standard_normal(shape).astype(np.float32) * 3


OPS = {
    "norm": lambda t, dim: torch.linalg.vector_norm(t, dim=dim),
    "cumsum": lambda t, dim: torch.cumsum(t, dim=0 if dim is None else dim),
    "std": lambda t, dim: t.std(dim=dim),
    "var": lambda t, dim: t.var(dim=dim),
    "tanh_grad": lambda t, dim: _grad(
        t, lambda v: (v.tanh() * torch.arange(v.numel()).reshape(v.shape)).sum()
    ),
    "std_grad": lambda t, dim: _grad(
        t, lambda v: v.std(dim=dim).sum() if t.numel() > 1 else v.sum()
    ),
    "bcel_grad": lambda t, dim: _grad(
        t, lambda v: torch.nn.functional.binary_cross_entropy_with_logits(v, (t > 0.5).float())
    ),
}


def _grad(t, f):
    v = t.clone().requires_grad_()
    f(v).backward()
    return v.grad


cases = []
for op, fn in OPS.items():
    sizes = list(range(1, 41)) + [63, 64, 65, 100, 257, 1000, 4097]
    shapes = [[n] for n in sizes] + [[5, 7], [3, 16], [4, 9], [2, 3, 13]]
    for shape in shapes:
        for seed in range(2):
            for dim in (None, -1) if len(shape) > 1 else (None,):
                r = fn(torch.from_numpy(draw(shape, seed)), dim).numpy()
                bits = [int(b) for b in r.reshape(-1).view(np.uint32)]
                case = {"op": op, "shape": shape, "seed": seed, "dim": dim, "bits": bits}
                if op in ("tanh_grad", "bcel_grad"):  # the kernel's tanh / sigmoid too
                    x = torch.from_numpy(draw(shape, seed))
                    t = (x.tanh() if op == "tanh_grad" else x.sigmoid()).numpy()
                    case["out"] = [int(b) for b in t.reshape(-1).view(np.uint32)]
                cases.append(case)
Path(__file__).with_name("float32_results.json").write_text(json.dumps(cases))
print(len(cases), "cases")
