"""Record PyTorch 2.13's float64 conv3d, conv_transpose1d / 2d / 3d (ATen's slow paths with
MKL's dgemm; grouped transposed convs one group at a time) forward and gradients on this
processor (AMD Zen 4: MKL's AVX2 code, gradcli's `zen4` family) for
tests/ops/test_conv64_slow3d.py: 48 seeded random cases, per case the SHA-256 of the output's,
the input's, the weight's and the bias's gradient bytes (with the case).

    cd tests/ops && OMP_NUM_THREADS=1 /work/torchenv/bin/python data/record_conv64_slow3d.py
"""

import hashlib
import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)


def cases():
    r = np.random.default_rng(2026)
    out = []
    for i in range(48):
        name = ["conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"][i % 4]
        d = int(name[-2])
        n, g = int(r.integers(1, 4)), int(r.choice([1, 1, 2]))
        ci, co = g * int(r.integers(1, 4)), g * int(r.integers(1, 4))
        k = tuple(int(v) for v in r.integers(1, 4, d))
        st, pd, dl = int(r.choice([1, 1, 2])), int(r.integers(0, 2)), int(r.choice([1, 1, 2]))
        sp = tuple(int(v) for v in r.integers(4, 8, d))
        kw = {"stride": st, "padding": pd, "dilation": dl, "groups": g}
        if name == "conv3d":
            out.append((name, (n, ci) + sp, (co, ci // g) + k, kw))
        else:
            if st > 1:
                kw["output_padding"] = int(r.integers(0, 2))
            out.append((name, (n, ci) + sp, (ci, co // g) + k, kw))
    return out


def draw(shape, seed):
    return np.random.default_rng([*shape, seed]).standard_normal(shape)


def bias_size(name, wshape, kw):
    return wshape[1] * kw["groups"] if "transpose" in name else wshape[0]


def digest(a):
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]


if __name__ == "__main__":
    rows = []
    for name, xs, ws, kw in cases():
        x = torch.from_numpy(draw(xs, 1)).requires_grad_()
        w = torch.from_numpy(draw(ws, 2)).requires_grad_()
        b = torch.from_numpy(draw((bias_size(name, ws, kw),), 3)).requires_grad_()
        y = getattr(F, name)(x, w, b, **kw)
        y.backward(torch.from_numpy(draw(tuple(y.shape), 4)))
        rows.append(
            [name, list(xs), list(ws), kw]
            + [digest(t.detach().numpy()) for t in (y, x.grad, w.grad, b.grad)]
        )
    path = Path(__file__).parent / "conv64_slow3d.json"
    path.write_text(json.dumps({"torch": torch.__version__, "zen4": rows}) + "\n")
