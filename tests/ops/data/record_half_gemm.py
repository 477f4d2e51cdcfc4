"""Record what PyTorch 2.13 computes for tests/ops/test_half_gemm.py: float16 and bfloat16
matrix products (mm, addmm with a bias row, a full input, alpha and beta; transposed operands),
bmm, float16 addmv, on an AMD EPYC Zen 4 (the `zen4` family of gradcli.core.cpu: ATen's
AVX-512 build, oneDNN's bfloat16 kernels past 16 ** 3 multiply-adds). Run there, one thread:
OMP_NUM_THREADS=1 /work/torchenv/bin/python tests/ops/data/record_half_gemm.py
Inputs are NumPy's, drawn from seeds (tests/ops/half_gemm_inputs.py, shared with the test);
results are stored as the SHA-256 of their values as float32 bytes."""

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from half_gemm_inputs import cases, draw  # noqa: E402

torch.set_num_threads(1)


def run(case: dict) -> str:
    dt = {"float16": torch.float16, "bfloat16": torch.bfloat16}[case["dtype"]]
    t = {key: torch.from_numpy(v).to(dt) for key, v in draw(case).items()}
    for key, v in draw(case).items():
        if not v.flags.c_contiguous:  # (the transposed view as drawn)
            t[key] = torch.from_numpy(np.ascontiguousarray(v.T)).to(dt).t()
    op = case["op"]
    if op == "mm":
        r = t["x"] @ t["y"]
    elif op == "addmm":
        r = torch.addmm(t["c"], t["x"], t["y"], beta=case["beta"], alpha=case["alpha"])
    elif op == "bmm":
        r = torch.bmm(t["x"], t["y"])
    else:
        r = torch.addmv(t["c"], t["x"], t["y"])
    return hashlib.sha256(r.float().numpy().tobytes()).hexdigest()


if __name__ == "__main__":
    recorded = [dict(c, out=run(c)) for c in cases()]
    path = Path(__file__).parent / "half_gemm.json"
    path.write_text(json.dumps({"cases": recorded}, indent=0) + "\n")
    print(len(recorded), "cases")
