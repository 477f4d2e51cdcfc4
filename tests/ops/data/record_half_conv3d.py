"""Record PyTorch 2.13's float16 conv3d, conv_transpose3d and dilated conv1d / conv2d / conv3d
(ATen's slow convolutions: no AVX512-FP16 on the machine) forward and gradients for
tests/ops/test_half_conv3d.py: per seeded case, the SHA-256 of the output's, the input's, the
weight's and the bias's gradient bytes, for the kernel family torch runs (AVX512 here;
`ATEN_CPU_CAPABILITY=avx2` for the avx2 family).

    cd tests/ops && OMP_NUM_THREADS=1 /work/torchenv/bin/python data/record_half_conv3d.py
    cd tests/ops && ATEN_CPU_CAPABILITY=avx2 OMP_NUM_THREADS=1 \
        /work/torchenv/bin/python data/record_half_conv3d.py
"""

import hashlib
import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)
FAMILY = torch.backends.cpu.get_cpu_capability().lower()
CASES = [  # (function, input shape, weight shape, keywords)
    ("conv3d", (2, 3, 5, 6, 7), (4, 3, 2, 3, 2), {}),
    ("conv3d", (1, 4, 6, 6, 6), (6, 2, 3, 3, 3), {"stride": 2, "padding": 1, "groups": 2}),
    ("conv3d", (2, 2, 4, 5, 5), (3, 2, 1, 1, 1), {}),
    ("conv3d", (1, 8, 5, 5, 5), (8, 8, 3, 3, 3), {"padding": 1}),
    ("conv3d", (2, 3, 7, 7, 7), (2, 3, 3, 3, 3), {"dilation": 2}),
    ("conv3d", (3, 4, 7, 7, 7), (4, 2, 2, 2, 2), {"dilation": 2, "groups": 2}),
    ("conv2d", (3, 3, 9, 9), (4, 3, 3, 3), {"dilation": 2}),
    ("conv1d", (3, 3, 30), (4, 3, 3), {"dilation": 3}),
    ("conv_transpose3d", (1, 3, 4, 4, 4), (3, 2, 2, 3, 2), {}),
    ("conv_transpose3d", (2, 2, 3, 4, 3), (2, 3, 3, 3, 3), {"stride": 2, "padding": 1}),
]


def draw(shape, seed):
    return np.random.default_rng([*shape, seed]).standard_normal(shape).astype(np.float16)


def bias_size(name, wshape, kw):
    return wshape[1] * kw.get("groups", 1) if "transpose" in name else wshape[0]


def digest(a):
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]


out = []
for name, xs, ws, kw in CASES:
    x = torch.from_numpy(draw(xs, 1)).requires_grad_()
    w = torch.from_numpy(draw(ws, 2)).requires_grad_()
    b = torch.from_numpy(draw((bias_size(name, ws, kw),), 3)).requires_grad_()
    y = getattr(F, name)(x, w, b, **kw)
    y.backward(torch.from_numpy(draw(tuple(y.shape), 4)))
    out.append(
        [name, list(xs), list(ws), kw]
        + [digest(t.detach().numpy()) for t in (y, x.grad, w.grad, b.grad)]
    )
path = Path(__file__).parent / "half_conv3d.json"
data = json.loads(path.read_text()) if path.exists() else {}
data[FAMILY] = out
data["torch"] = torch.__version__
path.write_text(json.dumps(data) + "\n")
