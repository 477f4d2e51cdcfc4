"""Records PyTorch 2.13's float64 convolutions on this machine (one thread) for
tests/ops/test_conv64_avx2.py: `OMP_NUM_THREADS=1 /work/torchenv/bin/python
conv64_avx2_record.py` writes conv64_avx2.json (each case's result as the hex digest of its
float64 bits). Inputs made by NumPy's seeded generator, shared with the test."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

# (samples, channels, height (0: conv1d), width, out channels, kernel, stride, pad, dilation,
# bias)
CASES = [
    (1, 3, 5, 5, 1, 3, 1, 0, 1, False),  # the issue's: one output channel
    (2, 3, 7, 7, 5, 3, 1, 0, 1, False),  # chains and the small kernel
    (2, 3, 7, 7, 5, 3, 1, 0, 1, True),
    (3, 8, 10, 7, 8, 3, 2, 1, 1, False),
    (1, 8, 10, 3, 13, 3, 1, 0, 1, True),  # peeled rows from the bias
    (2, 2, 8, 8, 1, 2, 1, 0, 1, False),  # one output channel, an odd offset
    (2, 3, 3, 11, 1, 2, 2, 0, 1, True),
    (2, 4, 5, 5, 3, 5, 1, 0, 1, True),  # one output position: dgemv
    (2, 4, 0, 10, 13, 2, 1, 0, 1, True),  # conv1d
    (2, 8, 11, 7, 4, 2, 2, 0, 2, True),  # dilated
    (1, 2, 6, 10, 3, 1, 2, 1, 1, False),  # 1x1
    (1, 1, 7, 7, 16, 1, 2, 0, 1, True),  # one inner index
]


# gradients (slow_conv2d's backward: dgemm / dgemv per sample, col2im), grouped convs (one conv
# per group): (samples, channels, height (0: conv1d), width, out channels, kernel, stride, pad,
# dilation, groups)
GRAD_CASES = [
    (3, 3, 10, 4, 3, 2, 1, 0, 1, 1),  # the dot kernel, odd sample offsets
    (2, 3, 5, 9, 1, 2, 1, 1, 1, 1),  # one output channel: dgemv
    (2, 1, 10, 5, 2, 1, 1, 1, 1, 1),  # one input channel and tap: dgemv, odd column offsets
    (3, 1, 6, 6, 5, 1, 2, 0, 1, 1),  # ... a pair and a single row
    (2, 4, 8, 5, 8, 2, 1, 1, 1, 1),  # chains
    (3, 2, 0, 11, 4, 3, 2, 1, 1, 1),  # conv1d
    (2, 3, 9, 8, 4, 2, 1, 0, 2, 1),  # dilated
    (1, 4, 6, 6, 6, 1, 2, 0, 1, 2),  # grouped, one sample: the groups are views
    (2, 4, 7, 6, 4, 3, 1, 1, 1, 2),  # grouped
    (1, 1, 4, 4, 8, 1, 1, 1, 1, 1),  # one inner index: -0 products stay -0
]


def grad_inputs(i: int) -> tuple:
    n, c, h, w, o, k, s, p, d, groups = GRAD_CASES[i]
    rng = np.random.default_rng(2000 + i)
    spatial = (w,) if h == 0 else (h, w)
    x = rng.standard_normal((n, c) + spatial)
    wt = rng.standard_normal((o, c // groups) + (k,) * len(spatial))
    out = tuple((z + 2 * p - d * (k - 1) - 1) // s + 1 for z in spatial)
    g = rng.standard_normal((n, o) + out)
    return x, wt, g, s, p, d, groups


def inputs(i: int) -> tuple:
    n, c, h, w, o, k, s, p, d, bias = CASES[i]
    rng = np.random.default_rng(1000 + i)
    x = rng.standard_normal((n, c, w) if h == 0 else (n, c, h, w))
    wt = rng.standard_normal((o, c, k) if h == 0 else (o, c, k, k))
    b = rng.standard_normal(o) if bias else None
    return x, wt, b, s, p, d


def sha(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a, np.float64).tobytes()).hexdigest()[:16]


def main() -> None:
    import torch
    import torch.nn.functional as F

    out = []
    for i in range(len(CASES)):
        x, w, b, s, p, d = inputs(i)
        conv = F.conv1d if x.ndim == 3 else F.conv2d
        bt = None if b is None else torch.from_numpy(b)
        y = conv(torch.from_numpy(x), torch.from_numpy(w), bt, stride=s, padding=p, dilation=d)
        out.append(sha(y.numpy()))
    grads = []
    for i in range(len(GRAD_CASES)):
        x, w, g, s, p, d, groups = grad_inputs(i)
        conv = F.conv1d if x.ndim == 3 else F.conv2d
        xt = torch.from_numpy(x).requires_grad_()
        wt = torch.from_numpy(w).requires_grad_()
        y = conv(xt, wt, stride=s, padding=p, dilation=d, groups=groups)
        y.backward(torch.from_numpy(g))
        grads.append([sha(y.detach().numpy()), sha(xt.grad.numpy()), sha(wt.grad.numpy())])
    path = Path(__file__).with_name("conv64_avx2.json")
    record = {"torch": torch.__version__, "cases": out, "grads": grads}
    path.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
