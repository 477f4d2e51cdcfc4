"""Record PyTorch's vector norms for tests/ops/test_norm_order.py (torch 2.13 CPU, one
thread: /work/torchenv/bin/python tests/ops/data/record_norm_order.py). Inputs are NumPy's,
from seeds, in float32 and float64, plain or transposed; orders 1, 2, 3, 1.5, 0.5 and 4,
over every dim, the whole tensor and pairs of dims; the results are bit patterns."""

import json
from pathlib import Path

import numpy as np
import torch

torch.set_num_threads(1)


def draw(shape: list[int], seed: int, dtype: str) -> np.ndarray:
    return np.random.default_rng([*shape, seed, 11]).standard_normal(shape).astype(dtype)


def bits(t: torch.Tensor) -> list[int]:
    a = t.numpy().reshape(-1)
    return [int(b) for b in a.view(np.uint32 if a.dtype == np.float32 else np.uint64)]


cases = []
shapes = [[5], [9], [100], [1000], [10, 10], [7, 13], [3, 40], [64, 33], [2, 3, 17]]
for dtype in ["float32", "float64"]:
    for shape in shapes:
        for transposed in [False, True] if len(shape) == 2 else [False]:
            dims: list = [None, *range(len(shape))]
            if len(shape) == 3:
                dims += [[0, 2], [1, 2]]
            for p in [1, 2, 3, 1.5, 0.5, 4]:
                for dim in dims:
                    x = torch.from_numpy(draw(shape, 0, dtype))
                    if transposed:
                        x = x.t()
                    out = torch.linalg.vector_norm(x, p, dim)
                    cases.append(
                        {
                            "shape": shape,
                            "dtype": dtype,
                            "transposed": transposed,
                            "p": p,
                            "dim": dim,
                            "bits": bits(out),
                        }
                    )
out = Path(__file__).with_name("norm_order.json")
out.write_text(json.dumps({"torch": torch.__version__, "cases": cases}) + "\n")
print(len(cases), "cases ->", out)
