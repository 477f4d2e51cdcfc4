"""Record PyTorch's float32 det, slogdet, solve and inv (and the gradients of det, slogdet
and solve's B) for tests/ops/test_lapack32.py: run with a Python that has torch 2.13 (CPU,
one thread), `python tests/ops/data/record_lapack32.py`. Each case stores a digest of the
result's float32 bits (and, for the smallest sizes, the bits themselves); the test draws the
inputs again from the same seeds (`draw` there)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import torch

torch.set_num_threads(1)
SIZES = list(range(1, 24))


def draw(n: int, count: int, seed: int, cols: int = 0) -> np.ndarray:
    rng = np.random.default_rng([n, count, seed, cols])
    return rng.standard_normal((count, n, cols or n)).astype(np.float32)


def digest(a: np.ndarray) -> str:
    bits = np.ascontiguousarray(np.asarray(a, dtype=np.float32)).view(np.uint32)
    return hashlib.sha256(bits.tobytes()).hexdigest()[:16]


def main() -> None:
    out: dict = {"torch": torch.__version__, "cases": {}}
    cases = out["cases"]
    for n in SIZES:
        a = torch.from_numpy(draw(n, 6, 0))
        b3 = torch.from_numpy(draw(n, 6, 1, 3))
        b1 = torch.from_numpy(draw(n, 6, 2, 1))
        g = torch.from_numpy(draw(1, 6, 3, 1).reshape(6))
        cases[f"det {n}"] = digest(torch.linalg.det(a).numpy())
        cases[f"det_t {n}"] = digest(torch.linalg.det(a.mT).numpy())
        s, la = torch.linalg.slogdet(a)
        cases[f"slogdet {n}"] = digest(np.stack([s.numpy(), la.numpy()], -1))
        cases[f"inv {n}"] = digest(torch.linalg.inv(a).numpy())
        cases[f"solve3 {n}"] = digest(torch.linalg.solve(a, b3).numpy())
        cases[f"solve1 {n}"] = digest(torch.linalg.solve(a, b1).numpy())
        x = a.clone().requires_grad_(True)
        torch.linalg.det(x).backward(g)
        cases[f"det_grad {n}"] = digest(x.grad.numpy())
        x = a.clone().requires_grad_(True)
        torch.linalg.slogdet(x)[1].backward(g)
        cases[f"slogdet_grad {n}"] = digest(x.grad.numpy())
        x = a.clone().requires_grad_(True)
        y = b3.clone().requires_grad_(True)
        torch.linalg.solve(x, y).backward(torch.from_numpy(draw(n, 6, 5, 3)))
        cases[f"solve_grad_b {n}"] = digest(y.grad.numpy())
    small = {}
    for n in (2, 3):
        a = torch.from_numpy(draw(n, 2, 4))
        small[f"det {n}"] = torch.linalg.det(a).numpy().view(np.uint32).tolist()
        small[f"inv {n}"] = torch.linalg.inv(a).numpy().view(np.uint32).reshape(-1).tolist()
    singular = torch.tensor([[[1.0, 2.0], [2.0, 4.0]], [[0.0, 1.0], [0.0, 3.0]]])
    small["det singular"] = torch.linalg.det(singular).numpy().view(np.uint32).tolist()
    s, la = torch.linalg.slogdet(singular)
    small["slogdet singular"] = [s.tolist(), la.tolist()]
    out["bits"] = small
    path = Path(__file__).with_name("lapack32.json")
    path.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
