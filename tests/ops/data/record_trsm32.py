"""Record PyTorch's float32 (and float64, n <= 5) torch.linalg.solve_triangular for
tests/ops/test_lapack32_trsm.py: run with a Python that has torch 2.13 (CPU, one thread),
`python tests/ops/data/record_trsm32.py`. Each case stores a digest of X's float32 bits (and,
for the smallest sizes, the first two systems' bits); the test draws A and B again from the
same seeds (this module's `draw`). Recorded on an AMD EPYC (AVX2, MKL's generic code)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

SIZES = list(range(1, 8))
COLUMNS = (1, 2, 3, 6)


def draw(n: int, cols: int, upper: bool, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """20 triangular systems: A's diagonal kept away from zero (|d| in [1, 3]), B normal."""
    rng = np.random.default_rng([n, cols, int(upper), seed])
    a = rng.standard_normal((20, n, n)).astype(np.float32)
    a = np.triu(a) if upper else np.tril(a)
    d = (rng.uniform(1, 3, (20, n)) * rng.choice([-1, 1], (20, n))).astype(np.float32)
    idx = np.arange(n)
    a[:, idx, idx] = d
    return a, rng.standard_normal((20, n, cols)).astype(np.float32)


def digest(a: np.ndarray) -> str:
    bits = np.ascontiguousarray(np.asarray(a, dtype=np.float32)).view(np.uint32)
    return hashlib.sha256(bits.tobytes()).hexdigest()[:16]


def digest64(a: np.ndarray) -> str:
    bits = np.ascontiguousarray(np.asarray(a, dtype=np.float64)).view(np.uint64)
    return hashlib.sha256(bits.tobytes()).hexdigest()[:16]


def main() -> None:
    import torch  # (the test imports draw and the digests without torch)

    torch.set_num_threads(1)
    cases = {}
    for n in SIZES:
        for cols in COLUMNS:
            for upper in (False, True):
                a, b = draw(n, cols, upper, 0)
                for unit in (False, True):
                    x = torch.linalg.solve_triangular(
                        torch.from_numpy(a), torch.from_numpy(b), upper=upper, unitriangular=unit
                    ).numpy()
                    case = {"digest": digest(x)}
                    if n <= 3:
                        case["bits"] = x[:2].view(np.uint32).ravel().tolist()
                    cases[f"{n}/{cols}/{int(upper)}/{int(unit)}"] = case
                    if cols in (1, 3):  # X A = B, B's transpose (cols x n)
                        bt = torch.from_numpy(b).mT.contiguous()
                        xr = torch.linalg.solve_triangular(
                            torch.from_numpy(a), bt, upper=upper, left=False, unitriangular=unit
                        ).numpy()
                        cases[f"R/{n}/{cols}/{int(upper)}/{int(unit)}"] = {"digest": digest(xr)}
                    if n <= 5:  # float64 (dtrsm), the same systems widened
                        x64 = torch.linalg.solve_triangular(
                            torch.from_numpy(a).double(),
                            torch.from_numpy(b).double(),
                            upper=upper,
                            unitriangular=unit,
                        ).numpy()
                        cases[f"f64/{n}/{cols}/{int(upper)}/{int(unit)}"] = {
                            "digest": digest64(x64)
                        }
    out = Path(__file__).parent / "trsm32.json"
    lines = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in cases.items()]
    body = ",\n".join(lines)
    head = f'{{"torch": {json.dumps(torch.__version__)}, "cases": {{\n'
    out.write_text(head + body + "\n}}\n")


if __name__ == "__main__":
    main()
