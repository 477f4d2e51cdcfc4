"""Record PyTorch 2.13's float64 softmax and log_softmax, forward and backward (ATen's CPU
kernels: SLEEF's exp and log, lane-wise sums along the last dimension, column-wise chunks along
another) for tests/ops/test_softmax64.py: per seeded case, the SHA-256 of the output's and
the input gradient's bytes (the output's gradient drawn from the shape's seed), for the
kernel family torch runs (AVX512 here; `ATEN_CPU_CAPABILITY=avx2` for the avx2 family).

    cd tests/ops && OMP_NUM_THREADS=1 /work/torchenv/bin/python data/record_softmax64_bits.py
    cd tests/ops && ATEN_CPU_CAPABILITY=avx2 OMP_NUM_THREADS=1 \
        /work/torchenv/bin/python data/record_softmax64_bits.py
"""

import hashlib
import json
from pathlib import Path

import numpy as np
import torch

torch.set_num_threads(1)
FAMILY = torch.backends.cpu.get_cpu_capability().lower()
CASES = [  # (shape, dim, scale): sizes along dim 1..70, inner sizes 1..20, chunked columns
    *(((3, n, inner), 1, 3.0) for n in (1, 2, 7, 8, 9, 31, 64, 70) for inner in (1, 3, 8, 13, 20)),
    *(((outer, n), 1, 3.0) for n in (1, 5, 8, 9, 16, 23, 70) for outer in (1, 4)),
    ((1, 900, 20), 1, 10.0),  # (chunks of 16 columns)
    ((4, 5, 6, 7), 0, 10.0),
    ((10, 40), 0, 300.0),
    ((10, 40), 1, 300.0),
    ((6, 9), 0, -1.0),  # (with inf, -inf, nan, a column of -inf)
    ((6, 9), 1, -1.0),
]


def draw(shape, scale):
    rng = np.random.default_rng([*shape, 11])
    x = rng.standard_normal(shape) * abs(scale)
    if scale < 0:
        x[0, 0], x[1, 1], x[2, 2] = np.inf, -np.inf, np.nan
        x[:, 3] = -np.inf
        x[3, :] = -np.inf
    return x


def digest(a):
    a = np.ascontiguousarray(a).copy()
    a[np.isnan(a)] = np.nan  # (one NaN pattern)
    return hashlib.sha256(a.tobytes()).hexdigest()[:16]


out = []
for shape, dim, scale in CASES:
    x = torch.from_numpy(draw(shape, scale))
    g = torch.from_numpy(draw(shape, 1.0))
    row = {"shape": list(shape), "dim": dim, "scale": scale}
    for name, fn in (("softmax", torch.softmax), ("log_softmax", torch.log_softmax)):
        xr = x.clone().requires_grad_()
        y = fn(xr, dim)
        y.backward(g)
        row[name] = digest(y.detach().numpy())
        row[name + "_grad"] = digest(xr.grad.numpy())
    out.append(row)
path = Path(__file__).parent / "softmax64_bits.json"
data = json.loads(path.read_text()) if path.exists() else {}
data[FAMILY] = out
data["torch"] = torch.__version__
path.write_text(json.dumps(data) + "\n")
