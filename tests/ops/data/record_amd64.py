"""Record PyTorch's float64 sqrt, tanh, exp and atan on an AMD machine (the `avx2` and `zen4` kernel
families: MKL's generic SSE kernels) for tests/ops/test_amd64.py: the SHA-256 of the output
bits for `amd64_inputs.inputs(op)` and the bits of its first 128 outputs and every 256th.

    cd tests/ops && /work/torchenv/bin/python data/record_amd64.py   # on an AMD EPYC
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
from amd64_inputs import canonical_bits, inputs  # noqa: E402

torch.set_num_threads(1)
with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
    if "AuthenticAMD" not in f.read():
        sys.exit("record on an AMD processor")
out = {"torch": torch.__version__}
for op in ("sqrt", "tanh", "exp", "atan"):
    x = inputs(op)
    with np.errstate(all="ignore"):
        bits = canonical_bits(getattr(torch, op)(torch.from_numpy(x)).numpy())
    sample = np.concatenate([bits[:128], bits[::256]])
    out[op] = {
        "sha256": hashlib.sha256(bits.tobytes()).hexdigest(),
        "sample": base64.b64encode(sample.astype("<u8").tobytes()).decode(),
    }
(Path(__file__).parent / "amd64_bits.json").write_text(json.dumps(out, indent=1) + "\n")
