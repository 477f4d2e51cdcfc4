"""Record PyTorch's float32 logsumexp for tests/ops/test_logsumexp32.py (torch 2.13 CPU:
/work/torchenv/bin/python tests/ops/data/record_logsumexp.py). Inputs are NumPy's, from
seeds; the results (and torch.exp of the shifted inputs, to tell which cases depend on the
closed MKL exp) are float32 bit patterns."""

import json
from pathlib import Path

import numpy as np
import torch

torch.set_num_threads(1)


def draw(shape: list[int], seed: int) -> np.ndarray:
    return np.random.default_rng([*shape, seed, 7]).standard_normal(shape).astype(np.float32) * 4


def bits(t: torch.Tensor) -> list[int]:
    return [int(b) for b in t.numpy().reshape(-1).view(np.uint32)]


cases = []
sizes = list(range(1, 41)) + [63, 64, 65, 100, 257, 1000]
shapes = [[n] for n in sizes] + [[5, 7], [3, 16], [4, 33], [2, 3, 13]]
for shape in shapes:
    for seed in range(3):
        for dim in [0] if len(shape) == 1 else [-1, 0]:
            x = torch.from_numpy(draw(shape, seed))
            m = x.amax(dim, keepdim=True)
            cases.append(
                {
                    "shape": shape,
                    "seed": seed,
                    "dim": dim,
                    "bits": bits(torch.logsumexp(x, dim)),
                    "exp_bits": bits((x - m).exp()),
                }
            )
out = Path(__file__).with_name("logsumexp32.json")
out.write_text(json.dumps({"torch": torch.__version__, "cases": cases}))
print(f"{len(cases)} cases -> {out}")
