"""Record PyTorch's float64 products of one row (or a vector) and a row-major matrix for
tests/ops/test_row64_order.py (torch 2.13 CPU, one thread:
/work/torchenv/bin/python tests/ops/data/record_row64.py). The operands are NumPy's, drawn
from the case's sizes and seed, so the test rebuilds them without torch; a result is stored as
the SHA-256 of its float64 bytes (any element one bit off changes it)."""

import hashlib
import json
from pathlib import Path

import numpy as np
import torch

torch.set_num_threads(1)

# (inner size k, columns n, seed)
CASES = [(2, 2, 0), (8, 8, 1), (16, 8, 2), (64, 16, 3), (100, 24, 4), (37, 32, 5), (300, 8, 6)]
CASES += [(9, 3, 7), (50, 7, 8), (200, 40, 9), (7, 64, 10), (1000, 16, 11), (5, 2, 12)]
CASES += [(2, 100, 13), (33, 200, 14), (2000, 3, 15), (384, 10, 16), (385, 10, 17), (1, 5, 18)]


def draw(shape, seed: int) -> np.ndarray:
    return np.random.default_rng([*shape, seed]).standard_normal(shape)


def digest(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a, dtype=np.float64).tobytes()).hexdigest()[:24]


# the dot-product kernel (each output one row's dot product): (rows m, inner k, kind, seed)
DOTS = [(8, k, "Av", 100 + k) for k in (2, 3, 5, 9, 15, 16, 17, 31, 32, 33, 64, 100, 257, 1000)]
DOTS += [(3, 40, "Acol", 1), (13, 129, "Av", 2), (100, 47, "Av", 3), (5, 2047, "Acol", 4)]
DOTS += [(7, 65, "xwt", 5), (1, 300, "xwt", 6), (16, 24, "vwt", 7), (1, 17, "vwt", 8)]
DOTS += [(10, 384, "linear", 9), (1, 50, "linear", 10), (33, 385, "linear", 11)]
DOTS += [(20, 100, "Atg", 12), (300, 8, "Atg", 13), (2, 1500, "Atg", 14)]


def dot_product(m: int, k: int, kind: str, seed: int) -> np.ndarray:
    a, v = torch.from_numpy(draw((m, k), seed)), torch.from_numpy(draw((k,), seed + 1))
    b = torch.from_numpy(draw((m,), seed + 2))
    if kind == "Av":
        return (a @ v).numpy()
    if kind == "Acol":
        return (a @ v[:, None]).numpy()
    if kind == "xwt":
        return (v[None] @ a.t()).numpy()
    if kind == "vwt":
        return (v @ a.t()).numpy()
    if kind == "linear":
        return torch.nn.functional.linear(v[None], a, b).numpy()
    g = torch.from_numpy(draw((m,), seed + 3))  # Atg: A.t() @ g, the gradient of A @ v
    vv = torch.from_numpy(draw((k,), seed + 1)).requires_grad_()
    (a @ vv).backward(g)
    out = (a.t() @ g).numpy()
    assert np.array_equal(out, vv.grad.numpy())
    return out


# x @ w.t() and F.linear with 4 to 15 rows (dgemm's chain in blocks of 192): (m, k, n, kind, seed)
FEW = [(4, 2, 33, "mm", 1), (5, 17, 8, "mm", 2), (15, 33, 2, "mm", 3), (7, 100, 8, "mm", 4)]
FEW += [(12, 191, 5, "mm", 5), (5, 385, 8, "mm", 6), (4, 1000, 3, "mm", 7)]
FEW += [(6, 384, 2, "linear", 8), (8, 193, 31, "linear", 9), (4, 300, 5, "linear", 10)]
FEW += [(13, 385, 9, "linear", 11), (9, 64, 16, "linear", 12)]


def few_rows(m: int, k: int, n: int, kind: str, seed: int) -> np.ndarray:
    x, w = torch.from_numpy(draw((m, k), seed)), torch.from_numpy(draw((n, k), seed + 1))
    if kind == "mm":
        return (x @ w.t()).numpy()
    return torch.nn.functional.linear(x, w, torch.from_numpy(draw((n,), seed + 2))).numpy()


def main() -> None:
    few = [{"case": list(c), "sha": digest(few_rows(*c))} for c in FEW]
    (Path(__file__).parent / "few64.json").write_text(
        "[\n" + ",\n".join(json.dumps(r) for r in few) + "\n]\n"
    )
    dots = [{"case": list(c), "sha": digest(dot_product(*c))} for c in DOTS]
    (Path(__file__).parent / "dot64.json").write_text(
        "[\n" + ",\n".join(json.dumps(r) for r in dots) + "\n]\n"
    )
    out = []
    for k, n, seed in CASES:
        x, b = torch.from_numpy(draw((1, k), seed)), torch.from_numpy(draw((k, n), seed + 1))
        mm = (x @ b).numpy()
        vec = (x[0] @ b).numpy()
        assert np.array_equal(mm[0], vec)  # one kernel for both
        out.append({"case": [k, n, seed], "sha": digest(mm)})
    path = Path(__file__).parent / "row64.json"
    path.write_text("[\n" + ",\n".join(json.dumps(r) for r in out) + "\n]\n")


if __name__ == "__main__":
    main()
