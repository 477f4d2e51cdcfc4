"""Record PyTorch's vector norms for tests/ops/test_norm_order.py (torch 2.13 CPU, one
thread: /work/torchenv/bin/python tests/ops/data/record_norm_order.py). Inputs are NumPy's,
from seeds, in float32 and float64, plain or transposed; orders 1, 2, 3, 1.5, 0.5, 4, -1 and -2.5,
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
            for p in [1, 2, 3, 1.5, 0.5, 4, -1, -2.5]:
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
# matrix norms of orders 1, -1, inf and -inf: 1-norms of the columns (rows), then amax / amin
matrix_cases = []
for dtype in ["float32", "float64"]:
    for shape in [[10, 10], [7, 13], [64, 33], [2, 9, 17]]:
        for ord_ in [1, -1, "inf", "-inf"]:
            for dim in [[-2, -1], [-1, -2]]:
                for keepdim in [False, True]:
                    x = torch.from_numpy(draw(shape, 1, dtype))
                    out = torch.linalg.matrix_norm(x, float(ord_), dim, keepdim)
                    matrix_cases.append(
                        {
                            "shape": shape,
                            "dtype": dtype,
                            "ord": ord_,
                            "dim": dim,
                            "keepdim": keepdim,
                            "out_shape": list(out.shape),
                            "bits": bits(out),
                        }
                    )
out = Path(__file__).with_name("norm_order.json")
payload = {"torch": torch.__version__, "cases": cases, "matrix_cases": matrix_cases}
out.write_text(json.dumps(payload) + "\n")
print(len(cases), "+", len(matrix_cases), "cases ->", out)
