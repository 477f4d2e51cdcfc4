"""Record PyTorch 2.13's float32 batch_norm (training mode) values and first-order gradients
for tests/ops/test_bn32_order.py: `OMP_NUM_THREADS=1 python record_bn32.py` (torch needed)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch


def cases() -> list[dict]:
    rng = np.random.default_rng(2026)
    out = []
    for seed in range(120):
        kind = seed % 3
        n = int(rng.integers(2, 70)) if kind == 0 else int(rng.integers(1, 6))
        c = int(rng.integers(1, 40)) if kind == 0 else int(rng.integers(1, 9))
        if kind == 0:
            shape = [n, c]
        elif kind == 1:
            shape = [n, c, int(rng.choice([2, 3, 5, 7, 8, 9, 16, 17, 31, 64]))]
        else:
            shape = [n, c, int(rng.integers(1, 9)), int(rng.integers(2, 12))]
        out.append(
            {
                "shape": shape,
                "seed": seed,
                "affine": bool(seed % 5),
                "upstream": "expanded" if seed % 7 == 3 else "dense",
                "training": seed < 90,
            }
        )
    return out


def draw(case: dict) -> tuple[np.ndarray, ...]:
    shape = case["shape"]
    rng = np.random.default_rng([case["seed"], 11])
    x = (rng.standard_normal(shape) * 3 + 1).astype(np.float32)
    w = rng.standard_normal(shape[1]).astype(np.float32)
    b = rng.standard_normal(shape[1]).astype(np.float32)
    g = rng.standard_normal(shape).astype(np.float32)
    rm = rng.standard_normal(shape[1]).astype(np.float32)
    rv = (rng.random(shape[1]) * 3 + 0.1).astype(np.float32)
    return x, w, b, g, rm, rv


def bits(t: torch.Tensor) -> list[int]:
    return t.detach().numpy().astype(np.float32).reshape(-1).view(np.uint32).tolist()


def main() -> None:
    torch.set_num_threads(1)
    recs = []
    for case in cases():
        x, w, b, g, rm, rv = (torch.from_numpy(a) for a in draw(case))
        stats = (None, None) if case["training"] else (rm, rv)
        x.requires_grad_(True)
        params = []
        if case["affine"]:
            w.requires_grad_(True)
            b.requires_grad_(True)
            params = [w, b]
        y = torch.nn.functional.batch_norm(
            x, *stats, w if params else None, b if params else None, training=case["training"]
        )
        up = torch.tensor(0.75).expand(y.shape) if case["upstream"] == "expanded" else g
        y.backward(up)
        rec = dict(case, y=bits(y), dx=bits(x.grad))
        if params:
            rec.update(dw=bits(w.grad), db=bits(b.grad))
        recs.append(rec)
    out = Path(__file__).parent / "bn32.json"
    out.write_text(json.dumps({"torch": torch.__version__, "cases": recs}) + "\n")


if __name__ == "__main__":
    main()
