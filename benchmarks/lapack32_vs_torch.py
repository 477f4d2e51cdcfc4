"""How often gradcli's float32 det, slogdet, solve, inv and the gradients of det, slogdet and
solve's B have PyTorch's exact bits (needs torch): random normal matrices of each size 1-32,
the share of bit-equal elements for gradcli's path and for NumPy's LAPACK (the path before
`gradcli/ops/lapack32.py`), one thread (README, "LAPACK").

    python benchmarks/lapack32_vs_torch.py [--count 1000] [--seed 0]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from gradcli.ops import lapack32  # noqa: E402
from gradcli.ops import matrices as M  # noqa: E402


def share(x: np.ndarray | None, y: np.ndarray) -> str:
    if x is None:
        return "   -  "
    return f"{np.mean(np.asarray(x, np.float32).view(np.uint32) == y.view(np.uint32)):6.4f}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.set_num_threads(1)
    rng = np.random.default_rng(args.seed)
    names = "det slogdet solve3 solve1 inv det_grad sld_grad solve_gB".split()
    print("n    " + " ".join(f"{k:>15}" for k in names) + "   (gradcli / NumPy)")
    for n in range(1, 33):
        a = rng.standard_normal((args.count, n, n)).astype(np.float32)
        b = rng.standard_normal((args.count, n, 3)).astype(np.float32)
        g = rng.standard_normal(args.count).astype(np.float32)
        gx = rng.standard_normal((args.count, n, 3)).astype(np.float32)
        ta, tb = torch.from_numpy(a), torch.from_numpy(b)
        x = ta.clone().requires_grad_(True)
        det = torch.linalg.det(x)
        det.backward(torch.from_numpy(g))
        det_grad = x.grad.numpy()
        x = ta.clone().requires_grad_(True)
        sign, logabs = torch.linalg.slogdet(x)
        logabs.backward(torch.from_numpy(g))
        sld_grad = x.grad.numpy()
        y = tb.clone().requires_grad_(True)
        torch.linalg.solve(ta, y).backward(torch.from_numpy(gx))
        ref = {
            "det": det.detach().numpy(),
            "slogdet": np.stack([sign.detach().numpy(), logabs.detach().numpy()], -1),
            "solve3": torch.linalg.solve(ta, tb).numpy(),
            "solve1": torch.linalg.solve(ta, tb[..., :1]).numpy(),
            "inv": torch.linalg.inv(ta).numpy(),
            "det_grad": det_grad,
            "sld_grad": sld_grad,
            "solve_gB": y.grad.numpy(),
        }
        d = ref["det"]
        ours = {
            "det": M._det_fwd(a),
            "slogdet": M._slogdet_fwd(a),
            "solve3": M._solve_fwd(a, b),
            "solve1": M._solve_fwd(a, b[..., :1]),
            "inv": M._inv_fwd(a),
            "det_grad": lapack32.det_grad(a, d * g, g),
            "sld_grad": lapack32.det_grad(a, g),
            "solve_gB": lapack32.solve_grad_b(a, gx),
        }
        inv = np.linalg.inv(a)
        s, la = np.linalg.slogdet(a)
        numpy = {
            "det": np.linalg.det(a),
            "slogdet": np.stack([s, la], -1),
            "solve3": np.linalg.solve(a, b),
            "solve1": np.linalg.solve(a, b[..., :1]),
            "inv": inv,
            "det_grad": (d * g)[:, None, None] * inv.transpose(0, 2, 1),
            "sld_grad": g[:, None, None] * inv.transpose(0, 2, 1),
            "solve_gB": np.linalg.solve(a.transpose(0, 2, 1), gx),
        }
        cells = [f"{share(ours[k], ref[k])}/{share(numpy[k], ref[k])}" for k in names]
        print(f"{n:3d}  " + " ".join(f"{c:>15}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
