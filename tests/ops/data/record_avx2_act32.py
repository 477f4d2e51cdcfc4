"""Record what PyTorch 2.13 computes on an AVX2 processor without AVX-512 (AMD EPYC, the
`avx2` kernel family of gradcli.core.cpu) for tests/ops/test_avx2_act32.py: the float32
activations of ATen's `cpu_kernel_vec` loops (sigmoid, silu, gelu(tanh), elu, selu, celu,
softplus, logsigmoid, mish) and pow (x ** 1.7, x ** w), forward and backward, over sizes
around the loop's steps (16 elements on AVX2, 32 on AVX-512) and a few strided views.
Run on such a machine, one thread:
/work/torchenv/bin/python tests/ops/data/record_avx2_act32.py
Inputs are NumPy's, drawn from seeds (the test rebuilds them without torch); results are
stored as the SHA-256 of their float32 bytes."""

import hashlib
import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)
assert torch.backends.cpu.get_cpu_capability() == "AVX2", "record on the avx2 family"


def draw(shape, seed):
    """Inputs of several scales with a few far ones (the softplus threshold, exp's ends),
    positive ones for pow, and an upstream gradient."""
    rng = np.random.default_rng([*shape, seed, 2])
    x = rng.standard_normal(shape) * rng.choice([0.5, 3.0, 12.0], shape)
    far = rng.random(shape) < 0.05
    x = np.where(far, rng.uniform(-110, 110, shape), x).astype(np.float32)
    p = rng.uniform(0.05, 4.0, shape).astype(np.float32)
    w = rng.standard_normal(shape).astype(np.float32)
    g = rng.standard_normal(shape).astype(np.float32)
    return x, p, w, g


OPS = {
    "sigmoid": lambda x, p, w: torch.sigmoid(x),
    "silu": lambda x, p, w: F.silu(x),
    "gelu_tanh": lambda x, p, w: F.gelu(x, approximate="tanh"),
    "elu": lambda x, p, w: F.elu(x),
    "selu": lambda x, p, w: F.selu(x),
    "celu": lambda x, p, w: F.celu(x, alpha=0.7),
    "softplus": lambda x, p, w: F.softplus(x),
    "logsigmoid": lambda x, p, w: F.logsigmoid(x),
    "mish": lambda x, p, w: F.mish(x),
    "pow_1.7": lambda x, p, w: p**1.7,
    "pow_xw": lambda x, p, w: p**w,
}
SHAPES = [[1], [7], [15], [16], [17], [24], [31], [33], [40], [5, 21], [3, 67], [200]]
VIEWS = {  # (shape drawn, view)
    "cols": ([4, 50], lambda t: t[:, :21]),
    "chunk": ([3, 60], lambda t: t.chunk(2, 1)[1]),
    "t": ([19, 6], lambda t: t.t()),
}


def sha(t) -> str:
    return hashlib.sha256(np.ascontiguousarray(t.detach().numpy()).tobytes()).hexdigest()


cases = []
for name, f in OPS.items():
    todo = [(s, None) for s in SHAPES] + [(s, v) for v, (s, _) in VIEWS.items()]
    for shape, view in todo:
        leaves = [torch.tensor(a, requires_grad=True) for a in draw(shape, 0)[:3]]
        cut = VIEWS[view][1] if view else (lambda t: t)
        y = f(*(cut(a) for a in leaves))
        y.backward(torch.from_numpy(draw(list(y.shape), 1)[3]))
        case = {"op": name, "shape": shape, "view": view, "y": sha(y)}
        case["grads"] = [sha(a.grad) if a.grad is not None else None for a in leaves]
        cases.append(case)

# where a NaN input's gradient is NaN (the vector loop) or not (the scalar tail): hardswish's
# and logit's kernels take steps of two vectors (64 bytes here, 128 on AVX-512)
nan_steps = {}
for name, f in (("hardswish", F.hardswish), ("logit", lambda t: torch.logit(t, eps=0.1))):
    for n in (7, 9, 16, 17, 20, 31, 33, 40):
        x = torch.full((n,), float("nan"), requires_grad=True)
        f(x).backward(torch.ones(n))
        nan_steps[f"{name}-{n}"] = [bool(v) for v in torch.isnan(x.grad).tolist()]

out = Path(__file__).parent / "avx2_act32.json"
data = {"torch": torch.__version__, "cases": cases, "nan_steps": nan_steps}
out.write_text(json.dumps(data, indent=0) + "\n")
print(f"{len(cases)} cases -> {out}")
