"""Record torch.geqrf's (a, tau) bits for tests/ops/geqrf_inputs.py (torch 2.13, on the AMD
processor whose MKL paths the avx2 family follows):

    OMP_NUM_THREADS=1 /work/torchenv/bin/python tests/ops/data/record_geqrf.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from geqrf_inputs import DTYPES, matrices  # noqa: E402


def bits(x: np.ndarray) -> str:
    u = np.ascontiguousarray(x).view(np.uint32 if x.dtype == np.float32 else np.uint64)
    return " ".join(format(int(v), "x") for v in u.ravel())


out = {}
for name, a in matrices():
    for dtype in DTYPES:
        r, tau = torch.geqrf(torch.from_numpy(a.astype(dtype)))
        out[f"{name}/{dtype}"] = [bits(r.numpy()), bits(tau.numpy())]
(Path(__file__).parent / "geqrf_bits.json").write_text(json.dumps(out, indent=1) + "\n")
