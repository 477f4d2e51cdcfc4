"""Record PyTorch's float32 2-norms for tests/ops/test_norm_order.py (run with torch 2.13 CPU:
/work/torchenv/bin/python tests/ops/data/record_norm.py). The inputs are NumPy's, drawn from
seeds, so the test rebuilds them without torch; the norms are stored as float32 bit patterns."""

import json
from pathlib import Path

import numpy as np
import torch

torch.set_num_threads(1)
cases = []
for n in list(range(1, 41)) + [63, 64, 65, 100, 257, 1000, 4097]:
    for seed in range(3):
        x = np.random.default_rng([n, seed]).standard_normal(n).astype(np.float32) * 3
        r = torch.linalg.vector_norm(torch.from_numpy(x)).numpy()
        cases.append({"shape": [n], "seed": seed, "dim": None, "bits": [int(r.view(np.uint32))]})
for shape in ([5, 7], [3, 16], [4, 9], [2, 3, 13]):
    for seed in range(2):
        x = np.random.default_rng([*shape, seed]).standard_normal(shape).astype(np.float32)
        r = torch.linalg.vector_norm(torch.from_numpy(x), dim=-1).numpy()
        bits = [int(b) for b in r.reshape(-1).view(np.uint32)]
        cases.append({"shape": shape, "seed": seed, "dim": -1, "bits": bits})
Path(__file__).with_name("norm_float32.json").write_text(json.dumps(cases))
print(len(cases), "cases")
