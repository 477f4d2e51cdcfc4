"""Single-column and narrow float32 products as PyTorch 2.13 computes them (MKL, one thread),
recorded as bits: the cases gradcli mirrors in `ops/linalg.py` (`_gemv_float32`,
`_narrow_chain`).

Each case is a kind and a shape; its operands are drawn by NumPy from a seed of their own (so
the test rebuilds them without torch). Kinds:

- `linear`: F.linear(x, w) for x (m, k) row-major and w (1, k), nn.Linear(k, 1)'s product;
  `linear_bias` the same with a bias (added after the product, rounded once);
- `mv`: x @ v for a vector v;
- `row`: g.t() @ x, a row times a row-major (m, n) matrix (the weight's gradient of
  nn.Linear(k, 1) with k = n, as PyTorch forms it);
- `col`: x.t() @ g, a transposed (m, n) matrix times a column (the same gradient as gradcli
  forms it);
- `linear_t`: F.linear(x, w) for a transposed x (its columns contiguous).

    /work/torchenv/bin/python tests/surface/data/gemv/record.py   # writes expected.npz
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def _shapes() -> list[tuple[str, int, int]]:
    rng = np.random.default_rng(2026)
    out: list[tuple[str, int, int]] = []
    # rows: whole groups of 4 and 1-3 rows after them; inner sizes across the 16-lane blocks
    for m in (2, 3, 4, 5, 16, 17, 18, 19, 31, 64, 100):
        for k in (2, 3, 16, 17, 18, 33, 34, 65, 300):
            out.append(("linear", m, k))
    for _ in range(40):
        out.append(("linear", int(rng.integers(2, 130)), int(rng.integers(2, 700))))
    for _ in range(15):
        out.append(("linear_bias", int(rng.integers(2, 130)), int(rng.integers(2, 300))))
        out.append(("mv", int(rng.integers(2, 130)), int(rng.integers(2, 300))))
    for _ in range(30):
        m = int(rng.integers(1, 1200))
        out.append(("row", m, int(rng.integers(2, 16))))
        out.append(("col", m, int(rng.integers(2, 16))))
    for _ in range(30):
        m = int(rng.integers(1, 400))
        out.append(("row", m, int(rng.integers(16, 200))))
        out.append(("col", m, int(rng.integers(16, 200))))
    for _ in range(15):
        out.append(("linear_t", int(rng.integers(2, 130)), int(rng.integers(2, 300))))
    return out


SHAPES = _shapes()


def operands(i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Case i's operands: (x or g, the other, a bias of one element)."""
    kind, m, k = SHAPES[i]
    rng = np.random.default_rng([7, i])
    if kind in ("row", "col"):
        g = rng.standard_normal((m, 1)).astype(np.float32)
        x = rng.standard_normal((m, k)).astype(np.float32)
        return g, x, np.zeros(1, np.float32)
    x = rng.standard_normal((m, k)).astype(np.float32)
    w = rng.uniform(-1, 1, (1, k)).astype(np.float32)
    return x, w, rng.uniform(-1, 1, 1).astype(np.float32)


def torch_result(i: int) -> np.ndarray:
    import torch

    torch.set_num_threads(1)
    kind = SHAPES[i][0]
    a, b, bias = (torch.from_numpy(v) for v in operands(i))
    if kind == "linear":
        out = torch.nn.functional.linear(a, b)
    elif kind == "linear_t":
        out = torch.nn.functional.linear(a.t().contiguous().t(), b)
    elif kind == "linear_bias":
        out = torch.nn.functional.linear(a, b, bias)
    elif kind == "mv":
        out = a @ b[0]
    elif kind == "row":
        out = a.t() @ b
    else:
        out = b.t() @ a
    return out.numpy().reshape(-1).view(np.uint32)


def main() -> None:
    results = [torch_result(i) for i in range(len(SHAPES))]
    lengths = np.array([len(r) for r in results])
    np.savez_compressed(HERE / "expected.npz", bits=np.concatenate(results), lengths=lengths)
    print(f"{len(SHAPES)} cases, {lengths.sum()} elements")


if __name__ == "__main__":
    main()
