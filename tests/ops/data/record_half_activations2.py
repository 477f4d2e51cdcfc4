"""Record what PyTorch 2.13 computes on an AVX2 processor without AVX-512 (the `avx2` kernel
family of gradcli.core.cpu) for tests/ops/test_half_activations2.py: more float16 and
bfloat16 activations (sinc, the shrinks, hardsigmoid, leaky_relu and rrelu's evaluation) and
the gradients ATen's reduced backward kernels compute (softplus, logsigmoid, silu, mish,
hardswish, the elu family, hardsigmoid, leaky_relu), over sizes around the vector step (32
two-byte elements on AVX2), a strided view and a transpose. Run on such a machine:
/work/torchenv/bin/python tests/ops/data/record_half_activations2.py
Inputs are NumPy's, drawn from seeds (the test rebuilds them without torch); results are stored
as the SHA-256 of their values as float32 bytes."""

import json
from pathlib import Path

import record_half_activations as first
import torch
import torch.nn.functional as F
from record_half_activations import sha, view

torch.set_num_threads(1)
assert torch.backends.cpu.get_cpu_capability() == "AVX2", "record on the avx2 family"

OPS = {
    "sinc": torch.sinc,
    "softshrink": lambda x: F.softshrink(x, 0.3),
    "hardsigmoid": F.hardsigmoid,
    "leaky_relu": lambda x: F.leaky_relu(x, 0.3),
    "rrelu": lambda x: F.rrelu(x, training=False),
    "softplus": F.softplus,
    "softplus_b2": lambda x: F.softplus(x, beta=2.0, threshold=3.0),
    "logsigmoid": F.logsigmoid,
    "silu": F.silu,
    "mish": F.mish,
    "hardswish": F.hardswish,
    "elu": lambda x: F.elu(x, 0.7),
    "selu": F.selu,
    "celu": lambda x: F.celu(x, 1.3),
}
# log_softmax of a few short rows (the kernel's sum and log kept in the dtype)
ROWS = {"log_softmax": lambda x: F.log_softmax(x, dim=-1)}
ROW_SHAPES = [[1, 2], [1, 5], [2, 7], [3, 3], [5, 3], [4, 4]]
DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16}
SHAPES = [[1], [5], [17], [31], [32], [33], [70], [3, 47]]
VIEWS = [None, "strided", "t"]


def draw(shape, seed):
    return first.draw(shape, seed, salt=11)


def main() -> None:
    cases = []
    for op, fn in OPS.items():
        for dname, dt in DTYPES.items():
            for shape in SHAPES:
                for kind in VIEWS:
                    if kind == "t" and len(shape) != 2:
                        continue
                    x, _ = draw(shape, 0)
                    leaf = torch.tensor(x).to(dt).requires_grad_()
                    y = fn(view(leaf, kind))
                    g = torch.tensor(draw(list(y.shape), 1)[1]).to(dt)
                    y.backward(g)
                    cases.append(
                        {
                            "op": op,
                            "dtype": dname,
                            "shape": shape,
                            "view": kind,
                            "y": sha(y),
                            "grad": sha(leaf.grad),
                        }
                    )
    for op, fn in ROWS.items():
        for dname, dt in DTYPES.items():
            for shape in ROW_SHAPES:
                x, _ = draw(shape, 0)
                leaf = torch.tensor(x).to(dt).requires_grad_()
                y = fn(leaf)
                g = torch.tensor(draw(list(y.shape), 1)[1]).to(dt)
                y.backward(g)
                cases.append(
                    {
                        "op": op,
                        "dtype": dname,
                        "shape": shape,
                        "view": None,
                        "y": sha(y),
                        "grad": sha(leaf.grad),
                    }
                )
    out = Path(__file__).parent / "half_activations2.json"
    out.write_text(json.dumps({"cases": cases}, indent=0) + "\n")
    print(len(cases), "cases")


if __name__ == "__main__":
    main()
