"""Record what PyTorch 2.13 computes on an AVX2 processor without AVX-512 (AMD EPYC, the
`avx2` kernel family of gradcli.core.cpu) for tests/ops/test_avx2_nn.py: float32 softmax and
log_softmax over several dims, cross_entropy, float32 / float64 prod, batched float32 conv1d /
conv2d (oneDNN's jit:avx2 direct kernel), float32 cumprod and avg_pool (the same on every
machine), forward and backward.
Run on such a machine, one thread:
/work/torchenv/bin/python tests/ops/data/record_avx2_nn.py
Inputs are NumPy's, drawn from seeds (the test rebuilds them without torch); results are stored
as the SHA-256 of their bytes (little-endian float32 or float64)."""

import hashlib
import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)
assert torch.backends.cpu.get_cpu_capability() == "AVX2", "record on the avx2 family"


def draw(shape, seed, scale=1.0, dtype="float32", positive=False):
    rng = np.random.default_rng([*shape, seed])
    if positive:  # products of values near 1 and of either sign stay in range
        v = np.asarray(rng.uniform(0.55, 1.6, shape) * rng.choice([-1.0, 1.0], shape))
    else:
        v = np.asarray(rng.standard_normal(shape) * scale)
    return v.astype(dtype)


def hexbits(t) -> str:
    """The SHA-256 of the result's bytes (its shape and dtype are the case's)."""
    return hashlib.sha256(np.ascontiguousarray(t.detach().numpy()).tobytes()).hexdigest()


cases = []
SOFT = [
    ([1, 1], 1),
    ([3, 7], 1),
    ([2, 8], 1),
    ([5, 9], 1),
    ([4, 16], 1),
    ([3, 17], 1),
    ([2, 31], 1),
    ([2, 64], 1),
    ([3, 100], 1),
    ([9, 5], 0),
    ([40, 3], 0),
    ([3, 5, 11], 1),
    ([2, 6, 19], 1),
    ([4, 3, 8], 0),
    ([200], 0),
]
for op in ("softmax", "log_softmax"):
    for shape, dim in SOFT:
        for scale in (0.5, 4.0):
            x = torch.from_numpy(draw(shape, 0, scale)).requires_grad_()
            y = getattr(F, op)(x, dim)
            y.backward(torch.from_numpy(draw(shape, 5)))
            cases.append(
                {
                    "op": op,
                    "shape": shape,
                    "dim": dim,
                    "scale": scale,
                    "dtype": "float32",
                    "out": hexbits(y),
                    "grad": hexbits(x.grad),
                }
            )
for n, c in ((1, 5), (4, 10), (7, 13), (20, 37), (3, 100)):
    x = torch.from_numpy(draw([n, c], 1, 3.0)).requires_grad_()
    t = torch.from_numpy(np.random.default_rng([n, c, 1]).integers(0, c, n))
    y = F.cross_entropy(x, t)
    y.backward()
    cases.append(
        {
            "op": "cross_entropy",
            "shape": [n, c],
            "dim": 1,
            "scale": 3.0,
            "dtype": "float32",
            "out": hexbits(y),
            "grad": hexbits(x.grad),
        }
    )
PROD = [
    ([7], None),
    ([31], None),
    ([32], None),
    ([33], None),
    ([65], None),
    ([300], None),
    ([4, 70], -1),
    ([3, 16], -1),
    ([5, 40], None),
    ([70, 4], 0),
    ([64, 1], 0),
    ([2, 3, 50], 2),
    ([6, 2, 9], 0),
    ([130, 2], 1),
]
for dtype in ("float32", "float64"):
    for shape, dim in PROD:
        x = torch.from_numpy(draw(shape, 2, dtype=dtype, positive=True)).requires_grad_()
        y = x.prod() if dim is None else x.prod(dim)
        y.backward(torch.from_numpy(draw(list(y.shape), 6, dtype=dtype)))
        cases.append(
            {
                "op": "prod",
                "shape": shape,
                "dim": dim,
                "scale": 1.0,
                "dtype": dtype,
                "out": hexbits(y),
                "grad": hexbits(x.grad),
            }
        )
# prod() of views: a slice (rows of a strided tensor, one product carried), a transpose
for shape, view in (([4, 37], "slice"), ([5, 70], "slice"), ([40, 3], "t"), ([9, 50], "step")):
    base = torch.from_numpy(draw(shape, 13, positive=True)).requires_grad_()
    x = {"slice": lambda b: b[:, :33], "t": lambda b: b.t(), "step": lambda b: b[::2]}[view](base)
    y = x.prod()
    y.backward(torch.from_numpy(draw([], 14)))
    cases.append(
        {
            "op": "prod_view",
            "shape": shape,
            "dim": view,
            "scale": 1.0,
            "dtype": "float32",
            "out": hexbits(y),
            "grad": hexbits(base.grad),
        }
    )
# conv: (x shape, w shape, stride, padding, bias): batched, oneDNN's jit:avx2 direct kernel
CONV = [
    ([2, 3, 20], [4, 3, 3], 1, 0, True),
    ([3, 9, 15], [12, 9, 5], 1, 2, True),
    ([2, 17, 11], [40, 17, 3], 1, 1, False),
    ([2, 5, 16], [6, 5, 5], 2, 2, True),
    ([2, 3, 9, 8], [5, 3, 3, 3], 1, 0, True),
    ([2, 16, 7, 7], [33, 16, 3, 3], 1, 1, True),
    ([3, 9, 8, 6], [10, 9, 2, 2], 1, 0, False),
    ([2, 4, 9, 9], [8, 4, 3, 3], 2, 1, True),
]
for xs, ws, st, pd, bias in CONV:
    x = torch.from_numpy(draw(xs, 3)).requires_grad_()
    w = torch.from_numpy(draw(ws, 4)).requires_grad_()
    b = torch.from_numpy(draw(ws[:1], 7)) if bias else None
    f = F.conv1d if len(xs) == 3 else F.conv2d
    y = f(x, w, b, stride=st, padding=pd)
    y.backward(torch.from_numpy(draw(list(y.shape), 8)))
    cases.append(
        {
            "op": "conv",
            "shape": xs,
            "wshape": ws,
            "dim": [st, pd, bias],
            "scale": 1.0,
            "dtype": "float32",
            "out": hexbits(y),
            "grad": hexbits(x.grad),
            "wgrad": hexbits(w.grad),
        }
    )
# conv_transpose, batched and unstrided: oneDNN's avx2 deconvolution (forward only)
for xs, ws, pd, bias in (
    ([2, 3, 7], [3, 5, 3], 1, True),
    ([3, 12, 5, 4], [12, 9, 3, 2], 0, False),
    ([2, 17, 4, 4], [17, 4, 4, 4], 1, True),
):
    x = torch.from_numpy(draw(xs, 15))
    w = torch.from_numpy(draw(ws, 16))
    b = torch.from_numpy(draw(ws[1:2], 17)) if bias else None
    f = F.conv_transpose1d if len(xs) == 3 else F.conv_transpose2d
    y = f(x, w, b, padding=pd)
    cases.append(
        {
            "op": "conv_transpose",
            "shape": xs,
            "wshape": ws,
            "dim": [pd, bias],
            "scale": 1.0,
            "dtype": "float32",
            "out": hexbits(y),
            "grad": "",
        }
    )
# cumprod: float32 in double on every machine
for shape, dim in (([40], 0), ([3, 50], 1), ([30, 4], 0)):
    x = torch.from_numpy(draw(shape, 9, positive=True)).requires_grad_()
    y = x.cumprod(dim)
    y.backward(torch.from_numpy(draw(shape, 10)))
    cases.append(
        {
            "op": "cumprod",
            "shape": shape,
            "dim": dim,
            "scale": 1.0,
            "dtype": "float32",
            "out": hexbits(y),
            "grad": hexbits(x.grad),
        }
    )
# avg_pool: the window summed in float32 in order, divided; the backward output by output
POOL = [
    ([2, 3, 17], 3, 3, 0, True),
    ([2, 2, 16], 4, 2, 1, False),
    ([1, 3, 9, 8], 3, 2, 1, True),
    ([2, 2, 7, 7], 3, 1, 1, False),
    ([2, 3, 8, 6], 2, 2, 0, True),
]
for shape, k, st, pd, cip in POOL:
    x = torch.from_numpy(draw(shape, 11)).requires_grad_()
    f = F.avg_pool1d if len(shape) == 3 else F.avg_pool2d
    y = f(x, k, st, pd, count_include_pad=cip)
    y.backward(torch.from_numpy(draw(list(y.shape), 12)))
    cases.append(
        {
            "op": "avg_pool",
            "shape": shape,
            "dim": [k, st, pd, cip],
            "scale": 1.0,
            "dtype": "float32",
            "out": hexbits(y),
            "grad": hexbits(x.grad),
        }
    )
out = Path(__file__).with_name("avx2_nn.json")
out.write_text(json.dumps(cases, indent=0) + "\n")
print(len(cases), "cases,", out.stat().st_size, "bytes")
