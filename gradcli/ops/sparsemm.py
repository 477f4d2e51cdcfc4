"""The product of a sparse COO matrix (`core.sparse.SparseCOO`, which never requires grad) and
a dense one: `torch.sparse.mm(s, d)`, `torch.mm(s, d)`, `s @ d`, as PyTorch's CPU kernel
computes it (ATen's s_addmm_out_sparse_dense_worker): the result starts at zero and each
stored entry (row, col, v), in the order the entries are stored (coalesced or not), adds
v * d[col] to row `row` with BLAS's axpy, one fused multiply-add per element. Entries of
different rows are independent, so they are applied in waves: the j-th entry of every row at
once.

A sparse CSR matrix's product (`fused=False`) adds its entries in the same order, each product
rounded before the sum, as PyTorch's CSR kernel.

The gradient with respect to d is PyTorch's `s.t().mm(grad)`: the same kernel on the
transposed entries (in the same stored order), itself recorded, so that it is differentiable
again."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import GradcliError, NotSupported
from ..core.sparse import SparseCOO
from ..core.tensor import Tensor
from . import arithmetic as A
from .custom import custom_apply

# What one product may cost: its multiply-adds, and the entries of one row (applied one
# after another, as PyTorch's kernel adds them).
_WORK = 100_000_000
_WAVES = 20_000


def _fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    if c.dtype == np.float64:
        from ..core.fma64 import _fma64

        return _fma64(a, b, c)
    from ..core.powf32 import fma32

    return fma32(a, b, c)


def _waves(rows: np.ndarray) -> np.ndarray:
    """Each entry's rank among the earlier entries of its row (0 for a row's first)."""
    order = np.argsort(rows, kind="stable")
    sorted_rows = rows[order]
    starts = np.r_[0, np.flatnonzero(np.diff(sorted_rows)) + 1]
    counts = np.diff(np.r_[starts, len(rows)])
    rank_sorted = np.arange(len(rows)) - np.repeat(starts, counts)
    rank = np.empty(len(rows), np.int64)
    rank[order] = rank_sorted
    return rank


def _product(
    rows: np.ndarray, cols: np.ndarray, vals: np.ndarray, d: np.ndarray, n: int, fused: bool = True
):
    out = np.zeros((n, d.shape[1]), d.dtype)
    if not len(rows) or not d.shape[1]:
        return out
    rank = _waves(rows)
    for j in range(int(rank.max()) + 1):
        pick = rank == j
        r, c = rows[pick], cols[pick]
        v = np.broadcast_to(vals[pick][:, None], (len(r), d.shape[1]))
        if fused:
            out[r] = _fma(np.ascontiguousarray(v), np.ascontiguousarray(d[c]), out[r])
        else:  # (a CSR matrix's kernel: each product rounded, then added)
            out[r] = out[r] + v * d[c]
    return out


def sparse_mm(s: SparseCOO, d: Any, label: str, fn: str = "mm", fused: bool = True) -> Tensor:
    """s @ d for a 2-D sparse s and a 2-D dense d, recorded as `label` (PyTorch's
    `SparseAddmmBackward0` for torch.sparse.mm, `MmBackward0` for torch.mm and `@`); its
    errors are the sparse product's own (`sparse_own`: not a sparse tensor's general refusal,
    `lang.calls`)."""
    try:
        return _sparse_mm(s, d, label, fn, fused)
    except GradcliError as e:
        e.sparse_own = True  # type: ignore[attr-defined]
        raise


def _sparse_mm(s: SparseCOO, d: Any, label: str, fn: str, fused: bool = True) -> Tensor:
    if isinstance(d, SparseCOO):
        raise NotSupported(
            "the product of two sparse tensors is not supported by gradcli",
            hint="make one of them dense: b.to_dense()",
        )
    if not isinstance(d, Tensor):
        raise GradcliError(
            f"{fn}(): argument 'mat2' must be Tensor, not {type(d).__name__}"
        ).mirror("TypeError")
    if s.sparse_dim != 2 or len(s.shape) != 2:
        raise GradcliError(f"addmm: matrices expected, got {s.sparse_dim}D tensor")
    if d.ndim != 2:
        raise GradcliError(f"addmm: matrices expected, got {d.ndim}D tensor")
    if s.shape[1] != d.shape[0]:
        raise GradcliError(
            f"mat1 and mat2 shapes cannot be multiplied ({s.shape[0]}x{s.shape[1]} and "
            f"{d.shape[0]}x{d.shape[1]})"
        )
    if s.dtype != d.dtype:
        raise GradcliError(
            f"expected mat1 and mat2 to have the same dtype, but got: {_name(s.dtype)} != "
            f"{_name(d.dtype)}"
        )
    if d.dtype not in (np.float32, np.float64):
        raise NotSupported(
            f"the product of a sparse tensor of {_name(d.dtype)} is not supported by gradcli",
            hint="use float32 or float64 values",
        )
    rows, cols = s.indices[0], s.indices[1]
    vals = s.values
    n = s.shape[0]
    bad = np.flatnonzero((cols < 0) | (cols >= s.shape[1]) | (rows < 0) | (rows >= n))
    if len(bad):  # the first entry the kernel meets, its column checked first
        r, c = int(rows[bad[0]]), int(cols[bad[0]])
        if not 0 <= c < s.shape[1]:
            raise GradcliError(
                f"addmm: index out of column bound: {c} not between 1 and {s.shape[1]}"
            )
        raise GradcliError(f"addmm: index out of row bound: {r} not between 1 and {n}")
    A.size_check((n, d.shape[1]), f"{fn} output")
    work = s.nnz * d.shape[1]
    per_row = int(np.bincount(rows).max()) if s.nnz else 0
    if work > _WORK or per_row > _WAVES:
        raise GradcliError(
            f"{fn}: gradcli's sparse product adds at most {_WORK:,} products, at most "
            f"{_WAVES:,} entries into one row; this one: {work:,} products, {per_row:,} entries "
            "in a row",
            hint="multiply the dense matrices (s.to_dense() @ d), or a smaller one",
        )

    def forward() -> Tensor:
        return Tensor(_product(rows, cols, vals, d.data, n, fused))

    def vjp(g: Any) -> tuple:
        st = SparseCOO(np.stack([cols, rows]), vals, (s.shape[1], s.shape[0]))
        return (sparse_mm(st, g, "MmBackward0"),)

    return custom_apply("SparseMm", [d], forward, vjp, label=label)


def _name(dt: np.dtype) -> str:
    from ..core.dtypes import scalar_type_name

    return scalar_type_name(dt)
