"""Record PyTorch's `torch.linalg.qr` bits on an AVX2 processor without AVX-512 (AMD EPYC)
for tests/ops/test_mklqr.py:

    OMP_NUM_THREADS=1 /work/torchenv/bin/python tests/ops/data/record_qr.py

writes qr_bits.json beside this file: per matrix, dtype and mode, Q's and R's bits in
hexadecimal (the larger float32 matrices: a hash of them)."""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path

import numpy as np
import torch

HERE = Path(__file__).parent
spec = importlib.util.spec_from_file_location("inputs", HERE.parent / "qr_inputs.py")
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)

assert torch.backends.cpu.get_cpu_capability() == "AVX2", "record on an AVX2-only machine"
torch.set_num_threads(1)


def bits(x: np.ndarray) -> str:
    u = np.ascontiguousarray(x).view(np.uint32 if x.dtype == np.float32 else np.uint64)
    return " ".join(format(int(v), "x") for v in u.ravel())


def digest(x: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(x).tobytes()).hexdigest()[:20]


out = {}
for name, a in mod.matrices():
    for dtype in mod.DTYPES:
        for mode in mod.MODES:
            q, r = torch.linalg.qr(torch.from_numpy(a.astype(dtype)), mode=mode)
            out[f"{name}/{dtype}/{mode}"] = [bits(q.numpy()), bits(r.numpy())]
for name, a in mod.large32():
    for mode in mod.LARGE_MODES:
        q, r = torch.linalg.qr(torch.from_numpy(a), mode=mode)
        out[f"{name}/float32/{mode}"] = [digest(q.numpy()), digest(r.numpy())]
for i, shape in enumerate(mod.ORTHOGONAL_SHAPES):
    w = torch.nn.init.orthogonal_(torch.empty(shape), generator=torch.Generator().manual_seed(i))
    out[f"orthogonal/{i}"] = digest(w.numpy())
(HERE / "qr_bits.json").write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
print(len(out), "records")
