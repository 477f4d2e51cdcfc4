"""`torch.sparse_coo_tensor`: a sparse COO tensor made from indices and values, the value
gradcli models for an embedding's sparse gradient (`core.sparse`): it prints, converts to
dense, coalesces and gives its indices and values as PyTorch's does; other operations on it
are refused (`core.sparse.refused`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from ..core import hooks
from ..core.sparse import SparseCOO, SparseCSR, set_requires_grad
from ..core.tensor import Tensor
from .constructors import tensor as make_tensor

_UNCHECKED = (
    "Sparse invariant checks are implicitly disabled. Memory errors (e.g. SEGFAULT) will occur "
    "when operating on a sparse tensor which violates the invariants, but checks incur "
    "performance overhead. To silence this warning, explicitly opt in or out. See "
    "`torch.sparse.check_sparse_tensor_invariants.__doc__` for guidance.  (Triggered "
    "internally at /__w/pytorch/pytorch/aten/src/ATen/Context.cpp:816.)"
)


def sparse_coo_tensor(
    indices: Any,
    values: Any,
    size: Any = None,
    *,
    dtype: Any = None,
    device: Any = None,
    pin_memory: Any = False,
    requires_grad: Any = False,
    check_invariants: Any = None,
    is_coalesced: Any = None,
) -> SparseCOO:
    if isinstance(values, Tensor) and values.requires_grad:
        raise NotSupported(
            "a sparse tensor made from values that require grad is not supported by gradcli "
            "(its gradient reaches a sparse leaf, not the values tensor)",
            hint="pass values.detach() with requires_grad=True, or build the dense tensor",
        )
    if check_invariants is None:
        hooks.warn(_UNCHECKED, once=True)
    idx = make_tensor(indices.data if isinstance(indices, Tensor) else indices)
    vals = make_tensor(values.data if isinstance(values, Tensor) else values, dtype=dtype)
    ind = np.asarray(idx.data)
    if ind.dtype.kind not in "iuf":
        raise GradcliError(f"indices must be an int64 tensor, not {ind.dtype}")
    ind = ind.astype(np.int64)
    if ind.ndim == 1:
        ind = ind.reshape(-1, 1) if ind.size else ind.reshape(1, 0)
    if ind.ndim != 2:
        raise GradcliError(f"indices must be sparse_dim x nnz, but got: {list(ind.shape)}")
    val = np.asarray(vals.data)
    if val.ndim == 0:
        raise GradcliError("values must have at least one dimension (nnz)")
    sparse_dim, nnz = ind.shape
    dense = tuple(val.shape[1:])
    if size is None:
        lead = tuple(int(m) + 1 for m in ind.max(axis=1)) if nnz else (0,) * sparse_dim
        shape = lead + dense
    else:
        shape = tuple(int(s) for s in (size if isinstance(size, (tuple, list)) else size))
        if len(shape) != sparse_dim + len(dense):
            raise GradcliError(
                f"'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = "
                f"{len(shape)}, sparse_dim = {sparse_dim}, dense_dim = {len(dense)}"
            ).pytorch()
        if tuple(shape[sparse_dim:]) != dense:
            raise GradcliError(
                f"values has incorrect size, expected {list(shape[sparse_dim:])}, got {list(dense)}"
            )
    if val.shape[0] != nnz:
        raise GradcliError(
            "indices and values must have same nnz, but got nnz from indices: "
            f"{nnz}, nnz from values: {val.shape[0]}"
        ).pytorch()
    made = SparseCOO(ind, val, shape, coalesced=bool(is_coalesced))
    if requires_grad:
        set_requires_grad(made)
    return made


def to_sparse(t: Any, sparse_dim: Any = None, *, layout: Any = None) -> SparseCOO:
    """`x.to_sparse()` / `x.to_sparse_coo()`: the nonzero entries of a dense tensor, in
    row-major order (coalesced), every dim sparse unless `sparse_dim` says fewer."""
    from ..core.tensor import grad_enabled

    if not isinstance(t, Tensor):
        raise GradcliError(f"to_sparse(): expected a Tensor, got {type(t).__name__}")
    if layout is not None and str(layout) != "torch.sparse_coo":
        raise NotSupported(
            f"to_sparse(layout={layout}) is not supported by gradcli (its sparse tensors are COO)",
            hint="leave layout out",
        )
    if t.requires_grad and grad_enabled():
        raise NotSupported(
            "to_sparse() of a tensor that requires grad is not supported by gradcli (gradients "
            "through sparse tensors)",
            hint="differentiate the dense tensor, or call to_sparse() on x.detach()",
        )
    n = t.ndim if sparse_dim is None else int(sparse_dim)
    if not 0 <= n <= t.ndim:
        raise GradcliError(f"sparse_dim argument must be in [0,{t.ndim}] range, but {n} is given")
    a = np.asarray(t.data)
    lead = a.shape[:n]
    flat = a.reshape((int(np.prod(lead, dtype=np.int64)),) + a.shape[n:])
    keep = np.flatnonzero(flat.reshape(flat.shape[0], -1).any(axis=1)) if flat.size else []
    keep = np.asarray(keep, np.int64)
    indices = np.array(np.unravel_index(keep, lead), np.int64).reshape(n, len(keep))
    return SparseCOO(indices, flat[keep].copy(), a.shape, coalesced=True)


def _csr_warning() -> None:
    hooks.warn(
        "Sparse CSR tensor support is in beta state. If you miss a functionality in the sparse "
        "tensor support, please submit a feature request to https://github.com/pytorch/pytorch/"
        "issues. (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/"
        "SparseCsrTensorImpl.cpp:49.)",
        once="sparse csr beta",
    )


def to_sparse_csr(t: Any, dense_dim: Any = None) -> SparseCSR:
    """`x.to_sparse_csr()` of a dense matrix (or of a sparse COO one): its nonzero entries row
    by row, with the offsets of each row's first."""
    if isinstance(t, SparseCSR):
        return t
    if isinstance(t, SparseCOO):
        if len(t.shape) != 2 or t.sparse_dim != 2:
            raise NotSupported(
                "to_sparse_csr() of a sparse tensor that is not a matrix is not supported by "
                "gradcli"
            )
        _csr_warning()
        return SparseCSR(t.coalesce())
    if not isinstance(t, Tensor):
        raise GradcliError(f"to_sparse_csr(): expected a Tensor, got {type(t).__name__}")
    if dense_dim is not None:
        raise NotSupported("to_sparse_csr(dense_dim=...) is not supported by gradcli")
    if t.ndim != 2:
        raise NotSupported(
            f"to_sparse_csr() of a {t.ndim}-D tensor is not supported by gradcli (its CSR "
            "tensors are matrices)",
            hint="convert each matrix: [m.to_sparse_csr() for m in x]",
        )
    coo = to_sparse(t.detach() if t.requires_grad else t)
    _csr_warning()
    return SparseCSR(coo)


def sparse_mask(t: Tensor, mask: Any) -> SparseCOO:
    try:
        return _sparse_mask(t, mask)
    except GradcliError as e:
        e.sparse_own = True  # type: ignore[attr-defined]  (`lang.calls`)
        raise


def _sparse_mask(t: Tensor, mask: Any) -> SparseCOO:
    """`x.sparse_mask(mask)`: a sparse COO tensor with the mask's indices (as the mask has
    them: duplicates and order kept, coalesced when the mask is) and x's values there (of a
    hybrid mask, x's dense blocks there); the mask's values are not read."""
    if isinstance(mask, SparseCSR):
        raise NotSupported(
            "sparse_mask with a sparse CSR mask is not supported by gradcli",
            hint="give the mask as a COO tensor: mask.to_sparse()",
        )
    if not isinstance(mask, SparseCOO):
        raise GradcliError(
            "Could not run 'aten::sparse_mask' with arguments from the 'CPU' backend.",
            found=f"a mask of type {type(mask).__name__}",
            hint="the mask is a sparse tensor: mask.to_sparse()",
        ).mirror("NotImplementedError")
    if tuple(t.shape) != mask.shape:
        raise GradcliError(
            "sparse_mask(): operands have incompatible sizes; self has size "
            f"{list(t.shape)} but mask has size {list(mask.shape)}"
        ).mirror("RuntimeError")
    if t.requires_grad:
        raise NotSupported(
            "sparse_mask of a tensor that requires grad is not supported by gradcli (its "
            "gradient would reach the tensor through a sparse result)",
            hint="mask the dense tensor instead: x * (mask.to_dense() != 0)",
        )
    idx = tuple(mask.indices[d] for d in range(mask.sparse_dim))
    return SparseCOO(mask.indices.copy(), t.data[idx], mask.shape, coalesced=mask.coalesced)


def sparse_csr_tensor(
    crow_indices: Any,
    col_indices: Any,
    values: Any,
    size: Any = None,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: Any = False,
    check_invariants: Any = None,
) -> SparseCSR:
    """`torch.sparse_csr_tensor(crow_indices, col_indices, values, size)`: a matrix's entries
    row by row; its size, when not given, the rows crow_indices has and the largest column."""
    from ..core.dtypes import check_dtype
    from .args import to_device_check

    to_device_check(device)
    if requires_grad:
        raise NotSupported(
            "a sparse CSR tensor that requires grad is not supported by gradcli",
            hint="differentiate the dense tensor",
        )
    crow = np.asarray(_plain(crow_indices, "crow_indices"))
    col = np.asarray(_plain(col_indices, "col_indices"))
    vals = np.asarray(_plain(values, "values"))
    if dtype is not None:
        vals = vals.astype(check_dtype(dtype))
    elif not isinstance(values, Tensor) and vals.dtype.kind == "f":
        vals = vals.astype(np.float32)
    if crow.ndim != 1 or col.ndim != 1 or vals.ndim != 1:
        raise NotSupported(
            "torch.sparse_csr_tensor with batch or dense dimensions is not supported by gradcli"
        )
    if crow.dtype.kind not in "iu" or col.dtype.kind not in "iu":
        raise GradcliError(
            f"crow_indices and col_indices must be an int32 or int64 type, but got: {crow.dtype}"
        )
    if len(col) != len(vals):
        raise GradcliError(
            f"col_indices and values must have the same number of elements, but got "
            f"col_indices.numel(): {len(col)}, values.numel(): {len(vals)}"
        )
    if size is None:
        shape = (len(crow) - 1, int(col.max()) + 1 if len(col) else 0)
    else:
        shape = tuple(int(v) for v in size)
    if len(shape) != 2:
        raise NotSupported("torch.sparse_csr_tensor of more than two dims is not supported")
    if len(crow) != shape[0] + 1 or crow[0] != 0 or np.any(np.diff(crow) < 0):
        raise GradcliError(
            f"`crow_indices[..., -1] == nnz` is not satisfied or crow_indices does not have "
            f"{shape[0] + 1} entries starting at 0 in non-decreasing order"
        )
    if crow[-1] != len(col) or (len(col) and (col.min() < 0 or col.max() >= shape[1])):
        raise GradcliError(
            "`0 <= col_indices < ncols` or `crow_indices[..., -1] == nnz` is not satisfied."
        )
    rows = np.repeat(np.arange(shape[0], dtype=np.int64), np.diff(crow))
    order = np.lexsort((col, rows))
    coo = SparseCOO(np.stack([rows, col.astype(np.int64)]), vals, shape, coalesced=False)
    if np.any(order != np.arange(len(order))) or len(set(zip(rows, col))) != len(col):
        coo = coo.coalesce()
    else:
        coo.coalesced = True
    hooks.warn(_UNCHECKED, once=True)
    _csr_warning()
    return SparseCSR(coo, crow)


def _plain(v: Any, what: str) -> Any:
    if isinstance(v, Tensor):
        return v.data
    if isinstance(v, (list, tuple)):
        limits.LIST_ITEMS.check(len(v), f"the {what} of a sparse tensor")
        return v
    raise GradcliError(
        f"sparse_csr_tensor(): argument '{what}' must be Tensor, not {type(v).__name__}"
    ).mirror("TypeError")


def sparse_sum(input: Any, dim: Any = None, dtype: Any = None) -> Any:  # noqa: A002
    try:
        return _sparse_sum(input, dim, dtype)
    except GradcliError as e:
        e.sparse_own = True  # type: ignore[attr-defined]  (`lang.calls`)
        raise


def _sparse_sum(input: Any, dim: Any = None, dtype: Any = None) -> Any:  # noqa: A002
    """`torch.sparse.sum(s)`: the sum of the values (a dense 0-dim tensor, PyTorch's
    `coalesce().values().sum()`); with `dim` (sparse dims only), the entries' indices without
    those dims, coalesced (the duplicates summed in coalesce's order), or a dense tensor when
    every sparse dim is summed."""
    from . import functional as F

    s = input
    if not isinstance(s, SparseCOO):
        raise GradcliError(
            f"torch.sparse.sum(): expected a sparse tensor, got {type(s).__name__}"
        ).mirror("TypeError")
    if dtype is not None:
        raise NotSupported("torch.sparse.sum(dtype=...) is not supported by gradcli")
    if s.values.ndim != 1:
        raise NotSupported(
            "torch.sparse.sum of a sparse tensor with dense dims is not supported by gradcli",
            hint="sum its to_dense()",
        )
    if dim is None:
        return F.sum(Tensor(s.coalesce().values.copy()))
    dims = [dim] if isinstance(dim, int) else list(dim)
    n = len(s.shape)
    for d in dims:
        if not -n <= d < n:
            raise GradcliError(
                f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})"
            ).mirror("IndexError")
    dims = sorted({d % n for d in dims})
    kept = [d for d in range(n) if d not in dims]
    if not kept:
        return F.sum(Tensor(s.coalesce().values.copy()))
    out = SparseCOO(s.indices[kept], s.values.copy(), tuple(s.shape[d] for d in kept))
    return out.coalesce()


def sparse_mm(mat1: Any, mat2: Any, reduce: Any = None) -> Tensor:
    """`torch.sparse.mm(sparse, dense)` (PyTorch's `SparseAddmmBackward0`); with `reduce`, of
    a CSR matrix: its rows' products reduced (`ops.sparsemm.sparse_mm_reduce`)."""
    try:
        return _sparse_mm(mat1, mat2, reduce)
    except GradcliError as e:
        e.sparse_own = True  # type: ignore[attr-defined]  (`lang.calls`)
        raise


def _sparse_mm(mat1: Any, mat2: Any, reduce: Any) -> Tensor:
    if reduce is not None:
        if not isinstance(mat1, SparseCSR):
            raise GradcliError(
                "Could not run 'aten::_sparse_mm_reduce_impl' with arguments from the "
                f"'{'SparseCPU' if isinstance(mat1, SparseCOO) else 'CPU'}' backend.",
                hint="torch.sparse.mm(s, d, reduce) takes a CSR matrix: s.to_sparse_csr()",
            ).mirror("NotImplementedError")
        from ..ops.sparsemm import sparse_mm_reduce

        return sparse_mm_reduce(mat1.coo, mat2, reduce)
    if isinstance(mat1, SparseCSR):
        from ..ops.sparsemm import sparse_mm as product

        return product(mat1.coo, mat2, "SparseAddmmBackward0", "mm", fused=False)
    return _mm(mat1, mat2, "SparseAddmmBackward0", "mm")


def sparse_addmm(mat: Any, mat1: Any, mat2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """`torch.sparse.addmm(mat, sparse, dense, beta=1, alpha=1)`: beta * mat + alpha *
    (sparse @ dense), PyTorch's one SparseAddmmBackward0 node."""
    try:
        return _sparse_addmm(mat, mat1, mat2, beta, alpha)
    except GradcliError as e:
        e.sparse_own = True  # type: ignore[attr-defined]  (`lang.calls`)
        raise


def _sparse_addmm(mat: Any, mat1: Any, mat2: Any, beta: Any, alpha: Any) -> Tensor:
    if not isinstance(mat1, SparseCOO):
        raise NotSupported(
            "torch.sparse.addmm of a matrix that is not sparse COO is not supported by gradcli",
            hint="torch.addmm(mat, a, b) for dense matrices; s.to_sparse() for a COO one",
        )
    if not isinstance(mat, Tensor):
        raise GradcliError(
            f"addmm(): argument 'input' (position 1) must be Tensor, not {type(mat).__name__}"
        ).mirror("TypeError")
    product = _mm(mat1, mat2, "SparseAddmmBackward0", "mm")
    scaled = product if alpha == 1 else product * alpha
    base = mat if beta == 1 else mat * beta
    out = base + scaled
    if out.node is not None:
        out.node.label = "SparseAddmmBackward0"
    return out


def spmm(input: Any, mat2: Any) -> Tensor:  # noqa: A002
    """`torch.spmm(sparse, dense)`: torch.mm of a sparse matrix."""
    return _mm(input, mat2, "MmBackward0", "spmm")


def _mm(a: Any, b: Any, label: str, fn: str) -> Tensor:
    from ..ops.sparsemm import sparse_mm as product

    if not isinstance(a, SparseCOO):
        from . import functional as F

        if isinstance(b, SparseCOO):
            raise NotSupported(
                "a dense matrix times a sparse one is not supported by gradcli",
                hint="write (s.t() @ d.t()).t() with s dense, or make it dense: b.to_dense()",
            )
        return F.mm(a, b)
    return product(a, b, label, fn)


def sparse_softmax(input: Any, dim: Any, dtype: Any = None) -> SparseCOO:  # noqa: A002
    """`torch.sparse.softmax(s, dim)`: the softmax of the stored entries of each line along
    `dim` (the others are -inf), as ATen's CPU kernel computes it on the coalesced entries:
    each line's max, exp(value - max) summed in the entries' order, each exp times the sum's
    reciprocal; the kernel's maxima, exponentials and sums are doubles (its accumulate type)
    for float32 values too, each exponential stored as a float32 before the product."""
    return _sparse_softmax(input, dim, dtype, log=False)


def sparse_log_softmax(input: Any, dim: Any, dtype: Any = None) -> SparseCOO:  # noqa: A002
    """`torch.sparse.log_softmax(s, dim)`: value - (max + log(sum of exp(value - max)))."""
    return _sparse_softmax(input, dim, dtype, log=True)


_LINE_ENTRIES = 20_000  # entries of one line a sparse softmax sums (one at a time)


def _sparse_softmax(s: Any, dim: Any, dtype: Any, log: bool) -> SparseCOO:
    try:
        return _softmax_of(s, dim, dtype, log)
    except GradcliError as e:
        e.sparse_own = True  # type: ignore[attr-defined]  (`lang.calls`)
        raise


def _softmax_of(s: Any, dim: Any, dtype: Any, log: bool) -> SparseCOO:
    fn = "log_softmax" if log else "softmax"
    if not isinstance(s, SparseCOO):
        raise NotSupported(
            f"torch.sparse.{fn} of a dense tensor is not supported by gradcli",
            hint=f"use torch.{fn}(x, dim) for a dense tensor",
        )
    if dtype is not None:
        raise NotSupported(f"torch.sparse.{fn}(dtype=...) is not supported by gradcli")
    n = len(s.shape)
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise GradcliError(f"{fn}(): argument 'dim' must be int, not {type(dim).__name__}").mirror(
            "TypeError"
        )
    if not -n <= dim < n:
        raise GradcliError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})"
        ).mirror("IndexError")
    dim %= n
    if dim >= s.sparse_dim or s.values.ndim != 1:
        raise NotSupported(
            f"torch.sparse.{fn} of a sparse tensor with dense dims is not supported by gradcli",
            hint="take it of the dense tensor: torch.softmax(s.to_dense(), dim)",
        )
    if s.dtype not in (np.float32, np.float64):
        raise GradcliError(f"\"{fn}\" not implemented for '{s.dtype}'").mirror(
            "NotImplementedError"
        )
    c = s.coalesce()
    vals = c.values
    nnz = len(vals)
    if not nnz:
        return SparseCOO(c.indices.copy(), vals.copy(), s.shape, True)
    # each entry's line: its indices but `dim`, row-major (ATen's pools, in their order)
    key = np.zeros(nnz, np.int64)
    for j in range(s.sparse_dim):
        if j != dim:
            key = key * s.shape[j] + c.indices[j]
    order = np.argsort(key, kind="stable")
    sk = key[order]
    starts = np.r_[0, np.flatnonzero(np.diff(sk)) + 1]
    group = np.empty(nnz, np.int64)
    group[order] = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, nnz]))
    rank = np.empty(nnz, np.int64)
    rank[order] = np.arange(nnz) - np.repeat(starts, np.diff(np.r_[starts, nnz]))
    longest = int(rank.max())
    if longest >= _LINE_ENTRIES:
        raise GradcliError(
            f"torch.sparse.{fn}: gradcli sums at most {_LINE_ENTRIES:,} entries of one line (one "
            f"after another, as PyTorch's kernel); this one has {longest + 1:,}",
            hint=f"take torch.{fn} of the dense tensor",
        )
    # (the kernel's scratch rows are of the accumulate type: double for float32 values too)
    wide = vals.astype(np.float64)
    mx = np.maximum.reduceat(wide[order], starts)
    e = _c_exp(wide - mx[group])
    sums = np.zeros(len(starts), np.float64)
    for r in range(longest + 1):  # each line's sum, in its entries' order
        pick = rank == r
        sums[group[pick]] = sums[group[pick]] + e[pick]
    with np.errstate(all="ignore"):
        if log:
            out = wide - (mx + np.log(sums))[group]
        else:  # each exp stored in the values' type, then times the sum's reciprocal
            out = e.astype(vals.dtype).astype(np.float64) * (1.0 / sums)[group]
    return SparseCOO(c.indices.copy(), out.astype(vals.dtype), s.shape, True)


def _c_exp(x: np.ndarray) -> np.ndarray:
    """exp of float64 values (the C library's and NumPy's agree on PyTorch's bits here)."""
    with np.errstate(all="ignore"):
        return np.exp(x)
