"""Record PyTorch's float64 and float32 lgamma, float64 expm1, log1p, sinh, cosh, atanh, exp2
and sigmoid (SLEEF's, on every machine: sinh, cosh, atanh, exp2 and sigmoid's exp on whole
vectors, the C library's on a loop's tail) for tests/ops/test_sleef64.py: the SHA-256 of the
output bits for the first 2**13 of `amd64_inputs.inputs(op)` and of its second half's first
2**13 (for float32, those inputs rounded to float32), and the bits of every 64th output.

    cd tests/ops && /work/torchenv/bin/python data/record_sleef64.py
"""

from __future__ import annotations

import base64
import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from amd64_inputs import N, canonical_bits, inputs  # noqa: E402

torch.set_num_threads(1)
x = inputs("lgamma")
x = np.concatenate([x[: 1 << 13], x[N // 2 : N // 2 + (1 << 13)], x[-14:]])
bits = canonical_bits(torch.lgamma(torch.from_numpy(x)).numpy())
out = {
    "torch": torch.__version__,
    "sha256": hashlib.sha256(bits.tobytes()).hexdigest(),
    "sample": base64.b64encode(bits[::64].astype("<u8").tobytes()).decode(),
}
with np.errstate(all="ignore"):
    x32 = x.astype(np.float32)
y32 = torch.lgamma(torch.from_numpy(x32)).numpy()
bits32 = y32.view(np.uint32).copy()
bits32[np.isnan(y32)] = 0x7FC00000
out["float32"] = {
    "sha256": hashlib.sha256(bits32.tobytes()).hexdigest(),
    "sample": base64.b64encode(bits32[::64].astype("<u4").tobytes()).decode(),
}
for op in ("expm1", "log1p", "sinh", "cosh", "atanh", "exp2", "sigmoid"):
    z = inputs(op)
    z = np.concatenate([z[: 1 << 13], z[N // 2 : N // 2 + (1 << 13)], z[-14:]])
    with np.errstate(all="ignore"):
        b = canonical_bits(getattr(torch, op)(torch.from_numpy(z)).numpy())
    out[op] = {
        "sha256": hashlib.sha256(b.tobytes()).hexdigest(),
        "sample": base64.b64encode(b[::64].astype("<u8").tobytes()).decode(),
    }
(Path(__file__).parent / "sleef64_bits.json").write_text(json.dumps(out, indent=1) + "\n")
