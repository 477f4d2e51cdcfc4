"""What a program may do with a sparse COO gradient (`core.sparse.SparseCOO`, the `.grad` of
an embedding's weight under `sparse=True`): read its layout and size, copy it dense, coalesce
it, read its indices and values, clear it. Anything else is refused in plain words."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..base.errors import GradcliError, NotSupported
from ..core.sparse import SparseCOO, SparseCSR, refused, set_requires_grad
from ..core.tensor import Tensor
from ..surface.printing import Size
from .namespaces import CPU, dtype_value
from .values import SPARSE_COO, SPARSE_CSR, Builtin


def _checked(s: SparseCOO, what: str) -> None:
    if not s.coalesced:
        raise GradcliError(
            f"Cannot get {what} on an uncoalesced tensor, please call .coalesce() first",
            hint=f"s.coalesce().{what}(), or s._{what}() for the entries as they are",
        ).pytorch()


def _size(s: SparseCOO, dim: Any = None) -> Any:
    if dim is None:
        return Size(s.shape)
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise NotSupported("size() of a sparse gradient takes an int dim or nothing")
    n = len(s.shape)
    if not -n <= dim < n:
        raise GradcliError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})"
        ).mirror("IndexError")
    return s.shape[dim]


def _zero(s: SparseCOO) -> SparseCOO:
    s.clear()
    return s


def _indices(s: SparseCOO) -> Tensor:
    return Tensor(s.indices.copy())


def _values(s: SparseCOO) -> Tensor:
    return Tensor(s.values.copy())


_PROPERTIES: dict[str, Callable[[SparseCOO], Any]] = {
    "shape": lambda s: Size(s.shape),
    "dtype": lambda s: dtype_value(s.dtype),
    "layout": lambda s: SPARSE_COO,
    "is_sparse": lambda s: True,
    "is_sparse_csr": lambda s: False,
    "device": lambda s: CPU,
    "is_cuda": lambda s: False,
    "is_cpu": lambda s: True,
    "requires_grad": lambda s: s.requires_grad,
    "is_leaf": lambda s: True,
    "grad_fn": lambda s: None,
    "grad": lambda s: _grad(s),
    "data": lambda s: _detached(s),
    "ndim": lambda s: len(s.shape),
}


def _grad(s: SparseCOO) -> Any:
    """`s.grad` of a sparse leaf that requires grad: sparse, at its nonzero places (in its
    coalesced order), as the products' gradients PyTorch masks to them; dense once a dense
    gradient (torch.mm's) was added, as PyTorch's sum of the two is."""
    g = s.shadow.grad if s.shadow is not None else None
    if g is None:
        return None
    if s.grad_dense:
        return g
    c = s.coalesce()
    values = np.asarray(g.data)[tuple(c.indices)] if c.nnz else np.zeros(0, g.dtype)
    return SparseCOO(c.indices.copy(), values, s.shape, coalesced=True)


def _detached(s: SparseCOO) -> SparseCOO:
    """`s.detach()` / `s.data`: the same entries, not requiring grad."""
    if not s.requires_grad:
        return s
    return SparseCOO(s.indices, s.values, s.shape, s.coalesced, s.contiguous)


def _to_dense(s: SparseCOO) -> Tensor:
    """`s.to_dense()`: a dense copy; of a sparse tensor that requires grad, one whose
    gradient reaches it at its nonzero places (PyTorch's ToDenseBackward0)."""
    from ..core.tensor import grad_enabled

    if not (s.requires_grad and grad_enabled()):
        return Tensor(s.dense())
    from ..ops.custom import custom_apply
    from ..ops.sparsemm import shadow, sparse_grad

    return custom_apply(
        "ToDense",
        [shadow(s)],
        lambda: Tensor(s.dense()),
        lambda g: (sparse_grad(s, g, dense=False),),
        label="ToDenseBackward0",
        program=False,
    )


# What a program may call on a sparse tensor that requires grad (the others would need
# PyTorch's gradients through sparse operations: refused in plain words).
_WITH_GRAD = frozenset(
    (
        "to_dense",
        "mm",
        "matmul",
        "detach",
        "requires_grad_",
        "size",
        "dim",
        "numel",
        "sparse_dim",
        "dense_dim",
        "is_coalesced",
        "_nnz",
        "indices",
        "_indices",
    )
)

_METHODS: dict[str, Callable[..., Any]] = {
    "to_dense": _to_dense,
    "requires_grad_": set_requires_grad,
    "coalesce": lambda s: s.coalesce(),
    "is_coalesced": lambda s: s.coalesced,
    "indices": lambda s: (_checked(s, "indices"), _indices(s))[1],
    "values": lambda s: (_checked(s, "values"), _values(s))[1],
    "_indices": _indices,
    "_values": _values,
    "_nnz": lambda s: s.nnz,
    "sparse_dim": lambda s: s.sparse_dim,
    "dense_dim": lambda s: len(s.shape) - s.sparse_dim,
    "size": _size,
    "dim": lambda s: len(s.shape),
    "numel": lambda s: int(np.prod(s.shape, dtype=np.int64)),
    "zero_": _zero,
    "clone": lambda s: s.clone(),
    "detach": _detached,
    "cpu": lambda s: s,
    "mm": lambda s, d: _product(s, d, "mm"),
    "matmul": lambda s, d: _product(s, d, "matmul"),
    "to_sparse": lambda s: s,
    "to_sparse_coo": lambda s: s,
    "to_sparse_csr": lambda s: _to_csr(s),
}


def _to_csr(s: SparseCOO) -> Any:
    from ..surface.sparse import to_sparse_csr

    return to_sparse_csr(s)


def _product(s: SparseCOO, d: Any, fn: str) -> Tensor:
    from ..ops.sparsemm import sparse_mm

    return sparse_mm(s, d, "MmBackward0", fn)


def sparse_attribute(rt: Any, s: SparseCOO, attr: str) -> Any:
    """`s.attr` of a sparse gradient."""
    prop = _PROPERTIES.get(attr)
    if prop is not None:
        return prop(s)
    method = _METHODS.get(attr)
    if method is not None and s.requires_grad and attr not in _WITH_GRAD:
        raise NotSupported(
            f"`.{attr}` of a sparse tensor that requires grad is not supported by gradcli "
            "(it differentiates sparse tensors through to_dense(), torch.sparse.mm, "
            "torch.sparse.addmm, torch.mm and @)",
            hint=f"call it on s.detach(), or on the dense tensor: s.to_dense().{attr}",
        )
    if method is not None:
        return Builtin(f"Tensor.{attr}", lambda *a, **k: method(s, *a, **k), raw=False)
    raise refused(f"`.{attr}`")


# --- sparse CSR matrices (`core.sparse.SparseCSR`) -----------------------------------------


def _csr_product(s: SparseCSR, d: Any, fn: str) -> Tensor:
    from ..ops.sparsemm import sparse_mm

    return sparse_mm(s.coo, d, "MmBackward0", fn, fused=False)


_CSR_PROPERTIES: dict[str, Callable[[SparseCSR], Any]] = {
    "shape": lambda s: Size(s.shape),
    "dtype": lambda s: dtype_value(s.dtype),
    "layout": lambda s: SPARSE_CSR,
    "is_sparse": lambda s: False,
    "is_sparse_csr": lambda s: True,
    "device": lambda s: CPU,
    "is_cuda": lambda s: False,
    "is_cpu": lambda s: True,
    "requires_grad": lambda s: False,
    "is_leaf": lambda s: True,
    "grad_fn": lambda s: None,
    "grad": lambda s: None,
    "data": lambda s: s,
    "ndim": lambda s: len(s.shape),
}

_CSR_METHODS: dict[str, Callable[..., Any]] = {
    "to_dense": lambda s: Tensor(s.coo.dense()),
    "crow_indices": lambda s: Tensor(s.crow.copy()),
    "col_indices": lambda s: Tensor(s.col.copy()),
    "values": lambda s: Tensor(s.values.copy()),
    "_nnz": lambda s: s.nnz,
    "size": lambda s, dim=None: _size(s.coo, dim),
    "dim": lambda s: len(s.shape),
    "numel": lambda s: int(np.prod(s.shape, dtype=np.int64)),
    "detach": lambda s: s,
    "cpu": lambda s: s,
    "clone": lambda s: SparseCSR(s.coo.clone(), s.crow.copy()),
    "mm": lambda s, d: _csr_product(s, d, "mm"),
    "matmul": lambda s, d: _csr_product(s, d, "matmul"),
    "to_sparse_csr": lambda s: s,
    "to_sparse": lambda s: s.coo.clone(),
    "to_sparse_coo": lambda s: s.coo.clone(),
    "sparse_dim": lambda s: 2,
    "dense_dim": lambda s: 0,
}


def csr_attribute(rt: Any, s: SparseCSR, attr: str) -> Any:
    """`s.attr` of a sparse CSR matrix."""
    prop = _CSR_PROPERTIES.get(attr)
    if prop is not None:
        return prop(s)
    method = _CSR_METHODS.get(attr)
    if method is not None:
        return Builtin(f"Tensor.{attr}", lambda *a, **k: method(s, *a, **k), raw=False)
    raise refused(f"`.{attr}`", csr=True)
