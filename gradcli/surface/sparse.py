"""`torch.sparse_coo_tensor`: a sparse COO tensor made from indices and values, the value
gradcli models for an embedding's sparse gradient (`core.sparse`): it prints, converts to
dense, coalesces and gives its indices and values as PyTorch's does; other operations on it
are refused (`core.sparse.refused`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import GradcliError, NotSupported
from ..core import hooks
from ..core.sparse import SparseCOO
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
    if requires_grad or (isinstance(values, Tensor) and values.requires_grad):
        raise NotSupported(
            "a sparse tensor that requires grad is not supported by gradcli (its sparse "
            "tensors are values: an embedding's gradient, torch.sparse_coo_tensor's)",
            hint="build the dense tensor and differentiate that",
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
    return SparseCOO(ind, val, shape, coalesced=bool(is_coalesced))
