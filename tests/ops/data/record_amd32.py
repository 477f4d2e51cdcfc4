"""Record PyTorch's float32 sqrt, exp, log and tanh on an AVX2 machine without AVX-512 (the
`avx2` kernel family) for tests/ops/test_amd32.py: the SHA-256 of the output bits for
`amd32_inputs.inputs(op)` and the bits of its first 256 outputs and every 512th.

    cd tests/ops && /work/torchenv/bin/python data/record_amd32.py   # on an AMD EPYC (Zen 3)
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
from amd32_inputs import canonical_bits, inputs  # noqa: E402

torch.set_num_threads(1)
if torch.backends.cpu.get_cpu_capability() != "AVX2":
    sys.exit("record on an AVX2 machine without AVX-512")
out = {"torch": torch.__version__}
for op in ("sqrt", "exp", "log", "tanh"):
    x = inputs(op)
    bits = canonical_bits(getattr(torch, op)(torch.from_numpy(x)).numpy())
    sample = np.concatenate([bits[:256], bits[::512]])
    out[op] = {
        "sha256": hashlib.sha256(bits.tobytes()).hexdigest(),
        "sample": base64.b64encode(sample.astype("<u4").tobytes()).decode(),
    }
(Path(__file__).parent / "amd32_bits.json").write_text(json.dumps(out, indent=1) + "\n")
