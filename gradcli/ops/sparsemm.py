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
from ..core.tensor import Tensor, grad_enabled
from . import arithmetic as A
from .custom import custom_apply
from .matrices import mm, mT

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

    leaf = shadow(s) if s.requires_grad and grad_enabled() else None

    def vjp(g: Any) -> tuple:
        st = SparseCOO(np.stack([cols, rows]), vals, (s.shape[1], s.shape[0]))
        grad_d = sparse_mm(st, g, "MmBackward0")
        if leaf is None:
            return (grad_d,)
        return grad_d, sparse_grad(s, mm(g, mT(d)), dense=label == "MmBackward0")

    if leaf is None:
        return custom_apply("SparseMm", [d], forward, vjp, label=label, program=False)
    return custom_apply("SparseMm", [d, leaf], forward, vjp, label=label, program=False)


def shadow(s: SparseCOO) -> Tensor:
    """The dense leaf a sparse tensor that requires grad gathers its gradient on (made once,
    of its shape: bounded as a tensor is)."""
    if s.shadow is None:
        s.shadow = Tensor(s.dense())
        s.shadow.requires_grad = True
    return s.shadow


def sparse_grad(s: SparseCOO, g: Tensor, dense: bool) -> Tensor:
    """The gradient a product gives a sparse input: PyTorch's sparse.mm / addmm keep its
    entries at the input's nonzero places (`sparse_mask`: a sparse gradient), torch.mm the
    whole dense matrix (`dense`: the .grad is dense from then on)."""
    if dense:
        s.grad_dense = True
        return g
    mask = np.zeros(s.shape, g.dtype)
    if s.nnz:
        mask[tuple(s.indices)] = 1
    return g * Tensor(mask)


def _name(dt: np.dtype) -> str:
    from ..core.dtypes import scalar_type_name

    return scalar_type_name(dt)


_REDUCTIONS = {"sum": "sum", "mean": "mean", "amax": "max", "max": "max", "amin": "min"}
_REDUCTIONS["min"] = "min"


def sparse_mm_reduce(s: SparseCOO, d: Any, reduce: str) -> Tensor:
    """`torch.sparse.mm(csr, d, reduce)` (PyTorch's SparseMmReduceImplBackward0, `s` the CSR
    matrix's entries row by row): each output row reduces the products `v * d[col]` of its
    row's entries: their sum, mean, or elementwise max / min (the first of equal ones wins,
    a NaN always), 0 for an empty row; the gradient reaches d through the entries that made
    each output (all for sum and mean, the mean's divided by the row's count)."""
    if not isinstance(reduce, str) or reduce not in (*_REDUCTIONS, "prod"):
        raise GradcliError(
            f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}"
        ).mirror("RuntimeError")
    if reduce == "prod":
        raise GradcliError("sparse_mm_reduce: reduce type of prod has not been enabled.").mirror(
            "RuntimeError"
        )
    kind = _REDUCTIONS[reduce]
    if s.requires_grad and grad_enabled():
        raise NotSupported(
            "the gradient of a sparse CSR matrix through torch.sparse.mm(..., reduce) is not "
            "supported by gradcli",
            hint="multiply s.detach(): the gradient then reaches the dense matrix",
        )
    if not isinstance(d, Tensor) or d.ndim != 2 or s.shape[1] != d.shape[0]:
        return sparse_mm(s, d, "SparseMmReduceImplBackward0", "mm", fused=False)
    rows, cols, vals = s.indices[0], s.indices[1], s.values
    n = s.shape[0]
    if kind in ("sum", "mean"):
        counts = np.bincount(rows, minlength=n).astype(vals.dtype)
        scale = np.where(counts > 0, counts, 1)[rows] if kind == "mean" else None

        def forward() -> Tensor:
            out = _product(rows, cols, vals, d.data, n, fused=False)
            if kind == "mean":
                out = out / np.where(counts > 0, counts, 1)[:, None].astype(out.dtype)
            return Tensor(out)

        def vjp(g: Any) -> tuple:
            v = vals if scale is None else (vals / scale).astype(vals.dtype)
            st = SparseCOO(np.stack([cols, rows]), v, (s.shape[1], s.shape[0]))
            return (sparse_mm(st, g, "MmBackward0"),)

        return custom_apply(
            "SparseMmReduce", [d], forward, vjp, label="SparseMmReduceImplBackward0", program=False
        )
    A.size_check((n, d.shape[1]), "mm output")
    if s.nnz * d.shape[1] > _WORK:
        raise GradcliError(
            f"mm: gradcli's sparse product adds at most {_WORK:,} products",
            hint="multiply the dense matrices (s.to_dense() @ d), or a smaller one",
        )
    best = np.zeros((n, d.shape[1]), d.dtype)
    arg = np.full((n, d.shape[1]), -1, np.int64)
    if s.nnz:
        rank = _waves(rows)
        for j in range(int(rank.max()) + 1):
            pick = np.flatnonzero(rank == j)
            r = rows[pick]
            new = vals[pick][:, None] * d.data[cols[pick]]  # (one entry of each row)
            cur = best[r]
            first = arg[r] < 0
            take = first | np.isnan(new) | ((new > cur) if kind == "max" else (new < cur))
            best[r] = np.where(take, new, cur)
            arg[r] = np.where(take, pick[:, None], arg[r])

    def forward_max() -> Tensor:
        return Tensor(best.copy())

    def vjp_max(g: Any) -> tuple:
        gd = np.asarray(g.data)
        out = np.zeros(d.shape, gd.dtype)
        rr, jj = np.nonzero(arg >= 0)
        e = arg[rr, jj]
        np.add.at(out, (cols[e], jj), (vals[e] * gd[rr, jj]).astype(gd.dtype))
        return (Tensor(out),)

    return custom_apply(
        "SparseMmReduce",
        [d],
        forward_max,
        vjp_max,
        label="SparseMmReduceImplBackward0",
        program=False,
    )
