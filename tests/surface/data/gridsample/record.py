"""Record PyTorch's F.grid_sample values and gradients (input and grid), bit for bit, for
tests/surface/test_gridsample.py (torch 2.13 CPU, one thread, as the corpus runs it:
/work/torchenv/bin/python tests/surface/data/gridsample/record.py). Cases, inputs, grids and
upstream gradients are drawn from seeds with NumPy, so the test rebuilds them without torch;
each result is stored as the SHA-256 of its bytes."""

import hashlib
import json
from pathlib import Path

import numpy as np


def cases(count: int = 200) -> list[dict]:
    """Random calls: 1 to 2 images of 1 to 5 channels, 1 to 6 pixels a side, grids of 1 to 7
    a side reaching past the border, every mode, padding and align_corners, both dtypes."""
    rng = np.random.default_rng(2027)
    out = []
    for i in range(count):
        n = int(rng.integers(1, 3))
        shape = [n, int(rng.integers(1, 6)), int(rng.integers(1, 7)), int(rng.integers(1, 7))]
        out.append(
            {
                "seed": i,
                "shape": shape,
                "grid": [n, int(rng.integers(1, 8)), int(rng.integers(1, 8)), 2],
                "mode": str(rng.choice(["bilinear", "nearest"])),
                "padding_mode": str(rng.choice(["zeros", "border", "reflection"])),
                "align_corners": bool(rng.random() < 0.5),
                "dtype": str(rng.choice(["float32", "float64"])),
                "reach": float(rng.choice([1.0, 1.3, 2.5])),
            }
        )
    return out


def draw(case: dict) -> tuple:
    rng = np.random.default_rng([case["seed"], 11])
    x = rng.standard_normal(case["shape"]).astype(case["dtype"])
    r = case["reach"]
    grid = rng.uniform(-r, r, case["grid"]).astype(case["dtype"])
    return x, grid, rng


def kwargs(case: dict) -> dict:
    return {k: case[k] for k in ("mode", "padding_mode", "align_corners")}


def digest(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]


def main() -> None:
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    rows = []
    for case in cases():
        x, grid, rng = draw(case)
        leaf, tg = torch.tensor(x, requires_grad=True), torch.tensor(grid, requires_grad=True)
        y = F.grid_sample(leaf, tg, **kwargs(case))
        g = rng.standard_normal(tuple(y.shape)).astype(case["dtype"])
        y.backward(torch.tensor(g))
        case["y"] = digest(y.detach().numpy())
        case["grad_input"] = digest(leaf.grad.numpy())
        case["grad_grid"] = digest(tg.grad.numpy())
        rows.append(case)
    (Path(__file__).parent / "results.json").write_text(json.dumps(rows, indent=0) + "\n")
    print(f"recorded {len(rows)} cases")


if __name__ == "__main__":
    main()
