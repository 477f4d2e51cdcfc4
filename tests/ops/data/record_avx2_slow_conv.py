"""Record what PyTorch 2.13 computes on an AVX2 processor without AVX-512 (AMD EPYC, the
`avx2` kernel family of gradcli.core.cpu) for tests/ops/test_avx2_slow_conv.py: float32
convolutions that ATen runs as slow_conv2d or slow_conv_dilated2d (one sample and small
inputs, 1x1 kernels with fewer than 16 samples, dilation: im2col and MKL's sgemm), forward;
grouped convs of 8k channels a group (oneDNN's jit:avx2 direct kernel), forward and the
input gradient; strided conv_transpose (brgconv_strided:avx2, or one small sample's
slow_conv_transpose2d), forward and weight gradient.
Run on such a machine, one thread:
/work/torchenv/bin/python tests/ops/data/record_avx2_slow_conv.py
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

# (x shape, w shape, padding, dilation, bias)
CASES = [
    ([1, 1, 9, 7], [2, 1, 3, 3], 1, 1, False),
    ([1, 1, 5, 5], [1, 1, 3, 3], 0, 1, True),
    ([1, 3, 8, 8], [6, 3, 3, 3], 1, 1, True),
    ([1, 2, 6, 11], [13, 2, 2, 3], 0, 1, False),
    ([1, 4, 12, 12], [16, 4, 3, 3], 1, 1, True),
    ([1, 8, 4, 4], [3, 8, 1, 3], 0, 1, True),
    ([1, 3, 3, 3], [5, 3, 3, 3], 0, 1, True),
    ([3, 5, 6, 7], [9, 5, 1, 1], 0, 1, True),
    ([1, 6, 10, 4], [14, 6, 1, 1], 0, 1, False),
    ([1, 3, 10, 10], [4, 3, 3, 3], 2, 2, True),
    ([1, 2, 9, 8], [3, 2, 3, 2], 1, 2, False),
    ([1, 3, 20], [4, 3, 3], 1, 1, True),
]


def draw(shape, seed):
    return np.random.default_rng([*shape, seed]).standard_normal(shape).astype(np.float32)


def sha(t) -> str:
    return hashlib.sha256(np.ascontiguousarray(t.detach().numpy()).tobytes()).hexdigest()


out = []
for xs, ws, pad, dil, bias in CASES:
    x, w = torch.from_numpy(draw(xs, 1)), torch.from_numpy(draw(ws, 2))
    b = torch.from_numpy(draw(ws[:1], 3)) if bias else None
    conv = F.conv1d if len(xs) == 3 else F.conv2d
    y = conv(x, w, b, padding=pad, dilation=dil)
    out.append({"x": xs, "w": ws, "pad": pad, "dil": dil, "bias": bias, "y": sha(y)})

# (x shape, w shape, groups, padding, bias)
GROUPED = [
    ([2, 16, 7, 7], [16, 8, 3, 3], 2, 1, True),
    ([1, 32, 6, 6], [32, 8, 3, 3], 4, 1, False),
    ([3, 16, 9, 8], [32, 8, 3, 3], 2, 1, True),
    ([2, 32, 8, 8], [16, 16, 5, 5], 2, 2, True),
    ([2, 16, 12], [48, 8, 3], 2, 1, False),
]
grouped = []
for xs, ws, groups, pad, bias in GROUPED:
    x = torch.from_numpy(draw(xs, 4)).requires_grad_()
    w, g = torch.from_numpy(draw(ws, 5)), None
    b = torch.from_numpy(draw(ws[:1], 6)) if bias else None
    conv = F.conv1d if len(xs) == 3 else F.conv2d
    y = conv(x, w, b, padding=pad, groups=groups)
    y.backward(torch.from_numpy(draw(list(y.shape), 7)))
    grouped.append(
        {
            "x": xs,
            "w": ws,
            "groups": groups,
            "pad": pad,
            "bias": bias,
            "y": sha(y),
            "gx": sha(x.grad),
        }
    )

# strided conv_transpose: (x shape, w shape, stride, padding, bias)
DECONV = [
    ([2, 8, 4, 4], [8, 3, 4, 4], 2, 1, True),
    ([3, 16, 3, 5], [16, 8, 3, 3], 2, 0, False),
    ([2, 3, 7, 5], [3, 4, 3, 3], 2, 0, False),
    ([2, 5, 9], [5, 6, 4], 3, 1, True),
    ([1, 4, 5, 5], [4, 6, 3, 3], 2, 1, True),
    ([1, 16, 3, 3], [16, 8, 4, 4], 2, 1, False),
    ([1, 3, 6, 4], [3, 2, 3, 2], 2, 0, True),
    ([1, 6, 5, 5], [6, 4, 3, 3], 1, 1, True),
    ([2, 4, 6, 6], [4, 8, 3, 3], 1, 0, False),
]
deconv = []
for xs, ws, st, pad, bias in DECONV:
    x, w = torch.from_numpy(draw(xs, 8)), torch.from_numpy(draw(ws, 9)).requires_grad_()
    b = torch.from_numpy(draw(ws[1:2], 10)) if bias else None
    f = F.conv_transpose1d if len(xs) == 3 else F.conv_transpose2d
    y = f(x, w, b, stride=st, padding=pad)
    y.backward(torch.from_numpy(draw(list(y.shape), 11)))
    case = {"x": xs, "w": ws, "stride": st, "pad": pad, "bias": bias, "y": sha(y)}
    deconv.append(dict(case, gw=sha(w.grad)))

path = Path(__file__).parent / "avx2_slow_conv.json"
data = {"torch": torch.__version__, "cases": out, "grouped": grouped, "deconv": deconv}
path.write_text(json.dumps(data, indent=0) + "\n")
print(f"{len(out)} cases -> {path}")
