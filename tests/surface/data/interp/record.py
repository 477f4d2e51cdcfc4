"""Record PyTorch's F.interpolate values and input gradients, bit for bit, for
tests/surface/test_interpolate.py (torch 2.13 CPU, one thread, as the corpus runs it:
/work/torchenv/bin/python tests/surface/data/interp/record.py). The cases, inputs and upstream
gradients are drawn from seeds with NumPy, so the test rebuilds them without torch; each
result is stored as the SHA-256 of its bytes."""

import hashlib
import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)
MODES = {
    1: ("linear", "nearest", "nearest-exact"),
    2: ("bilinear", "bicubic", "nearest", "nearest-exact"),
    3: ("trilinear", "nearest", "nearest-exact"),
}


def cases(count: int = 240) -> list[dict]:
    """Random calls: 1 to 3 spatial axes of 1 to 9, up- and down-sampling by sizes or by
    scale factors (integer, fractional, kept or recomputed), align_corners both ways, 1 to
    18 channels (the channels-last bilinear kernel's lanes), float32 and float64."""
    rng = np.random.default_rng(2026)
    out = []
    for i in range(count):
        d = int(rng.integers(1, 4))
        mode = str(rng.choice(MODES[d]))
        n, c = int(rng.integers(1, 3)), int(rng.choice([1, 2, 3, 4, 8, 16, 17, 18]))
        spatial = [int(v) for v in rng.integers(1, 10 if d < 3 else 6, d)]
        case = {"mode": mode, "shape": [n, c, *spatial], "seed": i}
        case["dtype"] = str(rng.choice(["float32", "float64"]))
        if rng.random() < 0.5:
            case["size"] = [int(v) for v in rng.integers(1, 3 * max(spatial) + 2, d)]
            if d == 2 and rng.random() < 0.15:  # the generic bilinear kernel (h + w > 128)
                case["size"] = [int(rng.integers(60, 80)), int(rng.integers(70, 90))]
        else:
            case["scale_factor"] = float(rng.choice([2, 3, 0.5, 1.5, 1.7, 2.25, 0.75, 1.3]))
            case["recompute_scale_factor"] = bool(rng.random() < 0.3)
        if "nearest" not in mode:
            case["align_corners"] = bool(rng.random() < 0.5)
        out.append(case)
    return out


def draw(case: dict) -> tuple[np.ndarray, np.ndarray | None]:
    rng = np.random.default_rng([case["seed"], 7])
    x = rng.standard_normal(case["shape"]).astype(case["dtype"])
    return x, rng


def kwargs(case: dict) -> dict:
    return {
        k: (tuple(v) if isinstance(v, list) else v)
        for k, v in case.items()
        if k in ("size", "scale_factor", "recompute_scale_factor", "align_corners", "mode")
    }


def digest(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]


def main() -> None:
    rows = []
    for case in cases():
        x, rng = draw(case)
        leaf = torch.tensor(x, requires_grad=True)
        try:
            y = F.interpolate(leaf, **kwargs(case))
        except RuntimeError:
            continue  # an empty output (PyTorch's error is tested elsewhere)
        g = rng.standard_normal(tuple(y.shape)).astype(case["dtype"])
        y.backward(torch.tensor(g))
        case["y"] = digest(y.detach().numpy())
        case["grad"] = digest(leaf.grad.numpy())
        case["grad_fn"] = type(y.grad_fn).__name__
        rows.append(case)
    path = Path(__file__).parent / "results.json"
    path.write_text(json.dumps(rows, indent=0) + "\n")
    print(f"recorded {len(rows)} cases")


if __name__ == "__main__":
    main()
