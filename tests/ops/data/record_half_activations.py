"""Record what PyTorch 2.13 computes on an AVX2 processor without AVX-512 (the `avx2` kernel
family of gradcli.core.cpu) for tests/ops/test_half_activations.py: activations, rsqrt and
(log_)softmax of float16 and bfloat16 tensors, forward and backward, over sizes around the
reduced kernels' vector step (32 two-byte elements on AVX2) and a strided view and a transpose.
Run on such a machine, one thread:
/work/torchenv/bin/python tests/ops/data/record_half_activations.py
Inputs are NumPy's, drawn from seeds (the test rebuilds them without torch); results are stored
as the SHA-256 of their values as float32 bytes."""

import hashlib
import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)
assert torch.backends.cpu.get_cpu_capability() == "AVX2", "record on the avx2 family"

OPS = {
    "sigmoid": torch.sigmoid,
    "softplus": F.softplus,
    "gelu": F.gelu,
    "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
    "silu": F.silu,
    "mish": F.mish,
    "elu": F.elu,
    "tanh": torch.tanh,
    "logsigmoid": F.logsigmoid,
    "hardswish": F.hardswish,
    "rsqrt": lambda x: torch.rsqrt(x.abs() + 0.01),
    "log_softmax": lambda x: F.log_softmax(x, dim=-1),
    "log_softmax0": lambda x: F.log_softmax(x, dim=0),
}
# the gradients PyTorch's reduced kernels compute (the others' rules are not this change's)
BACKWARD = {"sigmoid", "gelu", "gelu_tanh", "tanh", "log_softmax", "log_softmax0"}
DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16}
SHAPES = [[1], [17], [31], [32], [33], [100], [3, 47], [300]]
VIEWS = [None, "strided", "t"]


def draw(shape, seed, salt=7):
    """x and w for a case (`salt`: 7 here, 11 for record_half_activations2)."""
    rng = np.random.default_rng([*shape, seed, salt])
    x = (rng.standard_normal(shape) * rng.choice([0.5, 3.0, 9.0], shape)).astype(np.float32)
    w = rng.standard_normal(shape).astype(np.float32)
    return x, w


def view(t, kind):
    if kind == "strided":
        return t[..., ::2]
    if kind == "t":
        return t.t() if t.dim() == 2 else t
    return t


def sha(t) -> str:
    return hashlib.sha256(t.detach().float().contiguous().numpy().tobytes()).hexdigest()


def main() -> None:
    cases = []
    for op, fn in OPS.items():
        for dname, dt in DTYPES.items():
            for shape in SHAPES:
                for kind in VIEWS:
                    if kind == "t" and len(shape) != 2:
                        continue
                    x, w = draw(shape, 0)
                    leaf = torch.tensor(x).to(dt).requires_grad_(op in BACKWARD)
                    y = fn(view(leaf, kind))
                    case = {"op": op, "dtype": dname, "shape": shape, "view": kind, "y": sha(y)}
                    if op in BACKWARD:
                        g = torch.tensor(draw(list(y.shape), 1)[1]).to(dt)
                        y.backward(g)
                        case["grad"] = sha(leaf.grad)
                    cases.append(case)
    out = Path(__file__).parent / "half_activations.json"
    out.write_text(json.dumps({"cases": cases}, indent=0) + "\n")
    print(len(cases), "cases")


if __name__ == "__main__":
    main()
