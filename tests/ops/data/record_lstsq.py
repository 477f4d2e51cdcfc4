"""Record PyTorch's `torch.linalg.lstsq` solution bits on an AVX2 processor without AVX-512
(AMD EPYC) for tests/ops/test_mklgels.py:

    OMP_NUM_THREADS=1 /work/torchenv/bin/python tests/ops/data/record_lstsq.py

writes lstsq_bits.json beside this file: per system, dtype and driver ('gels'; 'gelsy'
without the first batch element, whose column pivoting PyTorch 2.13 leaves to chance) the
solution's bits in hexadecimal, and (gels, more rows than columns) the residuals'."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import torch

HERE = Path(__file__).parent
spec = importlib.util.spec_from_file_location("inputs", HERE.parent / "lstsq_inputs.py")
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)

assert torch.backends.cpu.get_cpu_capability() == "AVX2", "record on an AVX2-only machine"
torch.set_num_threads(1)
out = {}
for name, a, b in mod.systems():
    for dtype in mod.dtypes(name):
        for driver in ("gels", "gelsy"):
            r = torch.linalg.lstsq(
                torch.from_numpy(a.astype(dtype)), torch.from_numpy(b.astype(dtype)), driver=driver
            )
            x = r.solution.numpy()
            if driver == "gelsy":
                x = x[1:]
            u = np.ascontiguousarray(x).view(np.uint32 if dtype == "float32" else np.uint64)
            out[f"{name}/{dtype}/{driver}"] = " ".join(format(int(v), "x") for v in u.ravel())
            if driver == "gels" and a.shape[-2] > a.shape[-1]:
                u = np.ascontiguousarray(r.residuals.numpy())
                u = u.view(np.uint32 if dtype == "float32" else np.uint64)
                out[f"{name}/{dtype}/residuals"] = " ".join(format(int(v), "x") for v in u.ravel())
(HERE / "lstsq_bits.json").write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
print(f"recorded {len(out)} solutions")
