"""Record the signs of PyTorch's `torch.linalg.eigh` eigenvectors (MKL's ?syevd) for the
matrices of tests/ops/test_eigh_signs.py:

    OMP_NUM_THREADS=1 /work/torchenv/bin/python tests/ops/data/record_eigh_signs.py

writes eigh_signs.json beside this file: per matrix, dtype and triangle, one character per
column, the sign of the eigenvector's entry of largest magnitude (the signs do not depend on
the processor: MKL's algorithm decides them)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import torch

HERE = Path(__file__).parent
spec = importlib.util.spec_from_file_location("t", HERE.parent / "eigh_inputs.py")
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
torch.set_num_threads(1)

out = {}
for name, a in mod.matrices():
    for dtype in ("float32", "float64"):
        x = a.astype(dtype)
        for uplo in ("L", "U"):
            v = torch.linalg.eigh(torch.from_numpy(x), UPLO=uplo).eigenvectors.numpy()
            top = v[np.abs(v).argmax(0), np.arange(v.shape[1])]
            out[f"{name}/{dtype}/{uplo}"] = "".join("+" if t > 0 else "-" for t in top)
(HERE / "eigh_signs.json").write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
print(len(out), "records")
