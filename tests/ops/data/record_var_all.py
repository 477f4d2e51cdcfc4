"""Record PyTorch's var / std of float32 and float64 tensors reduced to one element (ATen's
`std_var_all_cpu`: the tensor's own mean first, which a float32 sum can overflow) and, beside
them, torch.var_mean / std_mean (Welford's road), for tests/ops/test_var_all.py. Run with
torch 2.13 CPU: /work/torchenv/bin/python tests/ops/data/record_var_all.py. The inputs are
NumPy's, drawn from seeds, scaled; the results are stored as bit patterns."""

import json
from pathlib import Path

import numpy as np
import torch

torch.set_num_threads(1)


def draw(shape: list[int], seed: int, scale: float, dtype: str) -> np.ndarray:
    x = np.random.default_rng([*shape, seed]).standard_normal(shape) * scale
    return x.astype(dtype)


CASES = []
for dtype in ("float32", "float64"):
    for shape in ([7], [5, 9], [64, 128], [3, 1, 40], [1000]):
        for seed, scale in ((1, 3.0), (2, 1e19), (3, 4e36), (4, 3e37), (5, 1e-30)):
            x = draw(shape, seed, scale, dtype)
            t = torch.from_numpy(x)
            dims = None if len(shape) == 1 else tuple(range(len(shape)))
            for correction in (1, 0):
                for root in (False, True):
                    fn = torch.std if root else torch.var
                    with_mean = torch.std_mean if root else torch.var_mean
                    out = fn(t, dim=dims, correction=correction)
                    welford, welford_mean = with_mean(t, dim=dims, correction=correction)
                    CASES.append(
                        {
                            "dtype": dtype,
                            "shape": shape,
                            "seed": seed,
                            "scale": scale,
                            "correction": correction,
                            "root": root,
                            "bits": int(out.numpy().reshape(1).view(f"uint{8 * x.itemsize}")[0]),
                            "welford": int(
                                welford.numpy().reshape(1).view(f"uint{8 * x.itemsize}")[0]
                            ),
                            "welford_mean": int(
                                welford_mean.numpy().reshape(1).view(f"uint{8 * x.itemsize}")[0]
                            ),
                        }
                    )

out = Path(__file__).parent / "var_all.json"
out.write_text(json.dumps(CASES) + "\n")
print(len(CASES), "cases ->", out)
