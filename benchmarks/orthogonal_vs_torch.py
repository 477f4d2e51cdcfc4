"""How far gradcli's `nn.init.orthogonal_` is from PyTorch's (needs torch): for 20 seeds of each
shape, in float32 and float64, the largest difference in ulps of each entry and in eps of the
largest entry, how many Q are exact; then, against the float64 QR of the same normal matrix,
how far each side's Q is and how orthogonal it is (README, "torch.Generator is the CPU one").

    python benchmarks/orthogonal_vs_torch.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from gradcli.surface import random as R  # noqa: E402

SHAPES = [(1, 1), (1, 5), (5, 1), (2, 2), (3, 3), (2, 3), (3, 2), (4, 4), (3, 5), (5, 3), (8, 8)]
SHAPES += [(16, 16), (10, 20), (20, 10), (32, 32), (64, 64), (100, 50), (4, 3, 2, 2), (128, 128)]


def float64_q(shape: tuple[int, ...], a: np.ndarray) -> np.ndarray:
    flat = a.reshape(shape[0], -1)
    tr = flat.T if flat.shape[0] < flat.shape[1] else flat
    q, r = np.linalg.qr(tr)
    q = q * np.sign(np.diag(r))
    return (q.T if flat.shape[0] < flat.shape[1] else q).reshape(shape)


def orthogonality(q: np.ndarray, eps: float) -> float:
    flat = q.reshape(q.shape[0], -1)
    g = flat @ flat.T if flat.shape[0] < flat.shape[1] else flat.T @ flat
    return float(np.abs(g - np.eye(g.shape[0])).max() / eps)


def main() -> None:
    for dt in ("float32", "float64"):
        tdt, eps = getattr(torch, dt), float(np.finfo(dt).eps)
        print(dt)
        for shape in SHAPES:
            own = of_max = to_ref_t = to_ref_g = orth_t = orth_g = 0.0
            exact = 0
            for seed in range(20):
                torch.manual_seed(seed)
                R.manual_seed(seed)
                t = torch.nn.init.orthogonal_(torch.empty(shape, dtype=tdt)).numpy()
                g = R.orthogonal_(shape, dtype=dt)
                torch.manual_seed(seed)
                a = torch.empty(shape, dtype=tdt).normal_().numpy().astype(np.float64)
                ref = float64_q(shape, a)
                d = np.abs(t.astype(np.float64) - g.astype(np.float64))
                own = max(own, float((d / np.spacing(np.abs(t)).astype(np.float64)).max()))
                of_max = max(of_max, float(d.max() / (np.abs(t).max() * eps)))
                exact += int((d == 0).all())
                to_ref_t = max(to_ref_t, float(np.abs(t - ref).max() / eps))
                to_ref_g = max(to_ref_g, float(np.abs(g - ref).max() / eps))
                orth_t = max(orth_t, orthogonality(t.astype(np.float64), eps))
                orth_g = max(orth_g, orthogonality(g.astype(np.float64), eps))
            print(
                f"  {str(shape):14s} exact {exact:2d}/20, worst {own:9.0f} own ulps, "
                f"{of_max:6.2f} eps of max|Q|; from float64 Q: torch {to_ref_t:6.1f} eps, "
                f"gradcli {to_ref_g:4.1f}; Q^T Q - I: torch {orth_t:4.1f} eps, "
                f"gradcli {orth_g:4.1f}"
            )


if __name__ == "__main__":
    main()
