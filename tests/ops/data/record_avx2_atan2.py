"""Record float32 torch.atan2 on an AVX2 processor without AVX-512 (AMD EPYC, the `avx2`
kernel family of gradcli.core.cpu) for tests/ops/test_avx2_atan2.py: random pairs of several
scales, every pair of special values, loops of 1 to 40 elements (vector steps and tails) and
broadcast / transposed operands. Run there, one thread:
/work/torchenv/bin/python tests/ops/data/record_avx2_atan2.py
Inputs are NumPy's, drawn from seeds; results are stored as the SHA-256 of their bytes."""

import hashlib
import json
from pathlib import Path

import numpy as np
import torch

torch.set_num_threads(1)
assert torch.backends.cpu.get_cpu_capability() == "AVX2", "record on the avx2 family"


def draw(n, seed):
    rng = np.random.default_rng([n, seed])
    return (rng.standard_normal(n) * rng.choice([1e-3, 1.0, 10.0, 1e4], n)).astype(np.float32)


def specials():
    sp = np.array([0, -0.0, np.inf, -np.inf, np.nan, 1, -1, 1e-40, -1e-40, 3e-39], np.float32)
    y, x = np.meshgrid(sp, sp)
    return y.ravel(), x.ravel()


def sha(t) -> str:
    return hashlib.sha256(np.ascontiguousarray(t.numpy()).tobytes()).hexdigest()


cases = {}
cases["random"] = sha(torch.atan2(torch.from_numpy(draw(4096, 1)), torch.from_numpy(draw(4096, 2))))
y, x = specials()
cases["specials"] = sha(torch.atan2(torch.from_numpy(y), torch.from_numpy(x)))
for n in range(1, 41):
    cases[f"n{n}"] = sha(torch.atan2(torch.from_numpy(draw(n, 3)), torch.from_numpy(draw(n, 4))))
a = torch.from_numpy(draw(111, 5).reshape(3, 37))
cases["broadcast"] = sha(torch.atan2(a, torch.from_numpy(draw(37, 6))))
cases["transposed"] = sha(torch.atan2(a, torch.from_numpy(draw(111, 7).reshape(37, 3)).t()))
cases["scalar"] = sha(torch.atan2(a, torch.tensor(0.7)))
path = Path(__file__).parent / "avx2_atan2.json"
path.write_text(json.dumps({"torch": torch.__version__, "cases": cases}, indent=0) + "\n")
print(f"{len(cases)} cases -> {path}")
