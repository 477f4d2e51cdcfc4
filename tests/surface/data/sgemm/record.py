"""Float32 matrix products as PyTorch 2.13 computes them (MKL's sgemm, one thread, AVX-512),
recorded as bits: the shape classes `gradcli/ops/linalg.py` mirrors (`_few_rows_kernel`, the
blocked chain `_mm_float32` with `_k_blocks`, `linear_sum`, `_one_dot`) and the gradient
products of nn.Linear for those shapes.

Each case is a kind and a shape (m rows, k inner, n columns); its operands are drawn by NumPy
from a seed of their own, so the test rebuilds them without torch. Kinds:

- `linear`: F.linear(x, w) for x (m, k), w (n, k), both row-major (x @ w.t());
- `linear_bias`: the same with a bias of n (PyTorch's addmm);
- `grad_x`: g @ w for g (m, n) and w (n, k), row-major (the input's gradient);
- `grad_w`: x.t() @ g (the weight's gradient, (k, n), as gradcli forms it);
- `linear3d`: F.linear on x of shape (2, m, k), with a bias (PyTorch folds it into one mm);
- `dot_t`, `dot_col`, `dot_vec`: one row x (1, k) times w.t() for w (1, k), times a k x 1
  matrix of its own, times a vector (a single dot product, by layout).

    /work/torchenv/bin/python tests/surface/data/sgemm/record.py   # writes expected.npz

`probe.py` beside this file is how the orders were found: inputs whose partial sums cancel.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def _shapes() -> list[tuple[str, int, int, int]]:
    rng = np.random.default_rng(2027)
    out: list[tuple[str, int, int, int]] = []
    # 1-15 rows: each of MKL's kernels (lanes as 4 x 4, pairs, halves, chain, one row)
    for m, k, n in (
        (2, 50, 13),
        (3, 100, 20),
        (5, 130, 3),
        (2, 40, 2),
        (9, 40, 3),
        (7, 26, 3),
        (4, 3, 8),
        (5, 6, 11),
        (3, 41, 11),
        (13, 34, 11),
        (10, 60, 2),
        (15, 300, 2),
        (1, 30, 3),
        (1, 40, 5),
        (1, 24, 4),
        (1, 500, 7),
        (4, 10, 5),
        (8, 54, 4),
    ):
        out.append(("linear", m, k, n))
    for _ in range(60):
        m, k, n = int(rng.integers(1, 16)), int(rng.integers(1, 200)), int(rng.integers(2, 40))
        out.append(("linear", m, k, n))
    # the blocked chain past 384 inner, fewer and more than 192 columns; k = 1 with a bias
    for m, k, n in ((16, 800, 20), (20, 1153, 8), (32, 784, 24), (16, 800, 192), (17, 1000, 200)):
        out.append(("linear", m, k, n))
        out.append(("linear_bias", m, k, n))
    for _ in range(30):
        m, k, n = int(rng.integers(1, 40)), int(rng.integers(1, 900)), int(rng.integers(1, 24))
        out.append(("linear_bias", m, k, n))
    for m, n in ((2, 3), (8, 16), (40, 10), (1, 5), (5, 1)):
        out.append(("linear_bias", m, 1, n))
    # the gradients' products, batches past 384 and 768 rows among them
    for _ in range(25):
        m, k, n = int(rng.integers(2, 1200)), int(rng.integers(1, 20)), int(rng.integers(2, 20))
        out.append(("grad_w", m, k, n))
        m, k, n = int(rng.integers(2, 12)), int(rng.integers(2, 20)), int(rng.integers(1, 900))
        out.append(("grad_x", m, k, n))
    for m, k, n in ((3, 30, 9), (5, 20, 2), (7, 400, 6)):
        out.append(("linear3d", m, k, n))
    for k in (2, 17, 40, 70, 385, 1000):
        for kind in ("dot_t", "dot_col", "dot_vec"):
            out.append((kind, 1, k, 1))
    return out


SHAPES = _shapes()


def operands(i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Case i's operands: (x or g, the other, a bias of n)."""
    kind, m, k, n = SHAPES[i]
    rng = np.random.default_rng([11, i])
    if kind == "grad_x":
        g = rng.standard_normal((m, n)).astype(np.float32)
        return g, rng.uniform(-1, 1, (n, k)).astype(np.float32), np.zeros(1, np.float32)
    if kind == "grad_w":
        x = rng.standard_normal((m, k)).astype(np.float32)
        return x, rng.standard_normal((m, n)).astype(np.float32), np.zeros(1, np.float32)
    shape = (2, m, k) if kind == "linear3d" else (m, k)
    x = rng.standard_normal(shape).astype(np.float32)
    w = (rng.uniform(-1, 1, (n, k)) / np.sqrt(k)).astype(np.float32)
    return x, w, rng.uniform(-1, 1, n).astype(np.float32)


def torch_result(i: int) -> np.ndarray:
    import torch

    torch.set_num_threads(1)
    kind = SHAPES[i][0]
    a, b, bias = (torch.from_numpy(v) for v in operands(i))
    if kind == "linear":
        out = torch.nn.functional.linear(a, b)
    elif kind in ("linear_bias", "linear3d"):
        out = torch.nn.functional.linear(a, b, bias)
    elif kind == "grad_x":
        out = a @ b
    elif kind == "grad_w":
        out = a.t() @ b
    elif kind == "dot_t":
        out = a @ b.t()
    elif kind == "dot_col":
        out = a @ b.t().contiguous()
    else:
        out = a @ b[0]
    return out.numpy().reshape(-1).view(np.uint32)


def main() -> None:
    results = [torch_result(i) for i in range(len(SHAPES))]
    lengths = np.array([len(r) for r in results])
    np.savez_compressed(HERE / "expected.npz", bits=np.concatenate(results), lengths=lengths)
    print(f"{len(SHAPES)} cases, {lengths.sum()} elements")


if __name__ == "__main__":
    main()
