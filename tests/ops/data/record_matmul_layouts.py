"""Record PyTorch's float32 matrix products in the layouts gradcli mirrors layout by layout
(`gradcli/ops/linalg.py`: strided rows and columns, sliced operands, batched products of one
row or column...) for tests/ops/test_matmul_layouts.py: run with a Python that has torch 2.13
(CPU, one thread), `python tests/ops/data/record_matmul_layouts.py`. Each case is a layout and
a shape; its operands are drawn by NumPy from seeds of their own and viewed the same way in
NumPy and in torch (`LAYOUTS`: slices and transposes, no copies), so the test rebuilds them
without torch. A case stores a digest of the result's bits and, for float32 results of at
most 64 elements, the bits themselves."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
OUT = HERE / "matmul_layouts.json"


def _k64(m: int, k: int, n: int) -> int:
    return max(1, min(2 * k, (1 << 17) // (m * n)))


# name: (operand shapes for (m, k, n), the views taking them to the product's operands,
# with `t` swapping the last two axes). The product is x @ y (PyTorch's matmul: mm, mv, bmm
# by the operands' dimensions).
LAYOUTS = {
    # a row whose elements are apart (a column of a wider matrix, transposed): MKL's column
    # kernel with an increment (the weight's gradient of nn.Linear(k, 1) through a slice)
    "row_strided": (lambda m, k, n: [(k, 2), (k, n)], lambda a, b, t: (t(a[:, 1:]), b)),
    "row_strided3": (lambda m, k, n: [(k, 5), (k, n)], lambda a, b, t: (t(a[:, 2:3]), b)),
    "row_strided_sly": (
        lambda m, k, n: [(k, 2), (k, n + 3)],
        lambda a, b, t: (t(a[:, 1:]), b[:, 1:-2]),
    ),
    # a contiguous row times a slice of a wider matrix (MKL's leading dimension)
    "row_sly": (lambda m, k, n: [(1, k), (k, n + 3)], lambda a, b, t: (a, b[:, 1:-2])),
    # a row that is a step slice (ATen copies it: the contiguous row's order)
    "row_step": (lambda m, k, n: [(3, 2 * k), (k, n)], lambda a, b, t: (a[1:2, ::2], b)),
    # a transposed matrix times a column or a vector whose elements are apart
    "col_strided_xt": (lambda m, k, n: [(k, m), (k, 2)], lambda a, b, t: (t(a), b[:, 1:])),
    "mv_t_strided": (lambda m, k, n: [(k, m), (k, 3)], lambda a, b, t: (t(a), b[:, 1])),
    # matrices whose rows or columns are apart (slices of wider ones: MKL's leading
    # dimension), neither row- nor column-major (ATen copies them), both transposed
    "sly": (lambda m, k, n: [(m, k), (k, n + 1)], lambda a, b, t: (a, b[:, 1:])),
    "slx_nt": (lambda m, k, n: [(m, k + 1), (n, k)], lambda a, b, t: (a[:, 1:], t(b))),
    "nt_sly": (lambda m, k, n: [(m, k), (n, k + 1)], lambda a, b, t: (a, t(b[:, 1:]))),
    "tn_sl": (lambda m, k, n: [(k, m + 2), (k, n)], lambda a, b, t: (t(a[:, 1:-1]), b)),
    "step": (lambda m, k, n: [(m, 2 * k), (k, n)], lambda a, b, t: (a[:, ::2], b)),
    "tt": (lambda m, k, n: [(k, m + 8), (n % 120 + 2, k)], lambda a, b, t: (t(a), t(b))),
    # float64 (MKL's dgemm: the fused chain in sgemm's blocks), row-major or transposed first
    # (inner sizes within the emulation's bound on work, 2^17 multiply-adds)
    "f64_nn": (lambda m, k, n: [(m, _k64(m, k, n)), (_k64(m, k, n), n)], lambda a, b, t: (a, b)),
    "f64_tn": (
        lambda m, k, n: [(_k64(m, k, n), m), (_k64(m, k, n), n)],
        lambda a, b, t: (t(a), b),
    ),
    "f64_bmm": (
        lambda m, k, n: [(2, m, _k64(m, k, n)), (2, _k64(m, k, n), n)],
        lambda a, b, t: (a, b),
    ),
    "f64_nt": (
        lambda m, k, n: [(m + 16, _k64(m + 16, k, n)), (n, _k64(m + 16, k, n))],
        lambda a, b, t: (a, t(b)),
    ),
    # F.linear in float64 with a bias (addmm: the bias is dgemm's beta, added to the blocks'
    # sums in order past 192 inner): x, w, b
    "f64_linear": (
        lambda m, k, n: [(m + 16, _k64(m + 16, k, n)), (n, _k64(m + 16, k, n)), (n,)],
        None,
    ),
    "f64_linear_k1": (lambda m, k, n: [(m + 2, 1), (n, 1), (n,)], None),
    # one output of mv: a row laid out as a column (`a.t()` for a of (k, 1)), times a vector
    # or a vector whose elements are apart; a step slice of a row (ATen copies it)
    "mv1_t": (lambda m, k, n: [(k, 1), (k,)], lambda a, b, t: (t(a), b)),
    "mv1_t_strided": (lambda m, k, n: [(k, 1), (k, 2)], lambda a, b, t: (t(a), b[:, 1])),
    "dot_strided": (lambda m, k, n: [(k, 3), (k, 3)], lambda a, b, t: (t(a[:, :1]), b[:, 1:2])),
    "dot_strided_col": (lambda m, k, n: [(k, 1), (k, 2)], lambda a, b, t: (t(a), b[:, 1:])),
    "mv1_step": (lambda m, k, n: [(2, 2 * k), (k,)], lambda a, b, t: (a[1:, ::2], b)),
    # a tall matrix transposed times a vector: few outputs, a long inner size
    "mv_tall_t": (lambda m, k, n: [(40 * m, 1 + k % 5), (40 * m,)], lambda a, b, t: (t(a), b)),
    # bmm of one row or one column (vmap's batching rules), batches of several and of one
    "bmm_row": (lambda m, k, n: [(3, 1, k + 8), (3, k + 8, n)], lambda a, b, t: (a, b)),
    "bmm_col": (lambda m, k, n: [(2, m, k + 8), (2, k + 8, 1)], lambda a, b, t: (a, b)),
    # the row or column made by a new axis (NumPy's step 0, PyTorch's row-major step)
    "bmm_row_newaxis": (
        lambda m, k, n: [(3, k + 8), (3, k + 8, n)],
        lambda a, b, t: (a[:, None], b),
    ),
    "bmm_col_newaxis": (
        lambda m, k, n: [(2, m, k + 8), (2, k + 8)],
        lambda a, b, t: (a, b[:, :, None]),
    ),
    "bmm_row_b1": (lambda m, k, n: [(1, 1, k + 8), (1, k + 8, n)], lambda a, b, t: (a, b)),
    "bmm_col_b1": (lambda m, k, n: [(1, m, k + 8), (1, k + 8, 1)], lambda a, b, t: (a, b)),
}


# einsum of two operands (PyTorch permutes them and calls bmm): the operands' shapes for
# (m, k, n) and a batch of 2, the case named "einsum EQUATION"
EINSUMS = {
    "i,ij->j": lambda m, k, n: [(k,), (k, n)],
    "ij,j->i": lambda m, k, n: [(m, k), (k,)],
    "ij,kj->ik": lambda m, k, n: [(m, k), (n, k)],
    "ik,jk->ij": lambda m, k, n: [(m, k), (n, k)],
    "bij,bjk->bik": lambda m, k, n: [(2, m, k), (2, k, n)],
    "bi,bij->bj": lambda m, k, n: [(2, k), (2, k, n)],
    "bij,bj->bi": lambda m, k, n: [(2, m, k), (2, k)],
}


def shapes() -> list[tuple[str, int, int, int]]:
    rng = np.random.default_rng(2613)
    out = []
    for eq in EINSUMS:
        for _ in range(8):
            m, n = int(rng.integers(2, 60)), int(rng.integers(2, 60))
            out.append((f"einsum {eq}", m, int(rng.integers(8, 500)), n))
    for name in LAYOUTS:
        for i in range(16):
            m = int(rng.integers(2, 90))
            n = int(rng.integers(2, 90))
            # inner sizes across the blocks of 4 and 8, a few long ones
            k = int(rng.integers(1, 40)) if i % 3 == 0 else int(rng.integers(2, 700))
            if i == 5:
                k = int(rng.integers(1000, 3000))
            out.append((name, m, k, n))
    return out


SHAPES = shapes()


def operands(i: int) -> list[np.ndarray]:
    name, m, k, n = SHAPES[i]
    rng = np.random.default_rng([2613, i])
    if name.startswith("einsum "):
        sizes = EINSUMS[name[7:]](m, k, n)
    else:
        sizes = LAYOUTS[name][0](m, k, n)
    dtype = np.float64 if name.startswith("f64_") else np.float32
    return [rng.standard_normal(s).astype(dtype) for s in sizes]


def numpy_views(i: int) -> tuple[np.ndarray, ...]:
    """The product's operands (an einsum's: its two arrays; F.linear's: x, w, b)."""
    if SHAPES[i][0].startswith("einsum ") or SHAPES[i][0].startswith("f64_linear"):
        return tuple(operands(i))
    return LAYOUTS[SHAPES[i][0]][1](*operands(i), lambda a: np.swapaxes(a, -1, -2))


def digest(a: np.ndarray) -> str:
    """The result's bits (float32 or float64, as computed)."""
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:20]


def torch_result(i: int) -> np.ndarray:
    import torch

    name = SHAPES[i][0]
    if name.startswith("f64_linear"):
        return torch.nn.functional.linear(*(torch.from_numpy(v) for v in operands(i))).numpy()
    a, b = (torch.from_numpy(v) for v in operands(i))
    if name.startswith("einsum "):
        return torch.einsum(name[7:], a, b).numpy()
    x, y = LAYOUTS[name][1](a, b, lambda v: v.transpose(-1, -2))
    return (x @ y).numpy()


def main() -> None:
    import torch

    torch.set_num_threads(1)
    cases = []
    for i, (name, m, k, n) in enumerate(SHAPES):
        r = torch_result(i)
        case = {"layout": name, "m": m, "k": k, "n": n, "digest": digest(r)}
        if r.size <= 64 and r.dtype == np.float32:
            case["bits"] = r.reshape(-1).view(np.uint32).tolist()
        cases.append(case)
    lines = ",\n".join(json.dumps(c) for c in cases)
    OUT.write_text(f'{{"torch": "{torch.__version__}", "cases": [\n{lines}\n]}}\n')
    print(f"{len(cases)} cases written to {OUT.name}")


if __name__ == "__main__":
    main()
