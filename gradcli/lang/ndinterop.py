"""A tensor meeting NumPy, as PyTorch's `Tensor.__array__` / `__array_wrap__` make them meet:
NumPy reads a tensor as `t.numpy()` (refused for one that requires grad while grad mode is
on), and a ufunc's result on a tensor is made a tensor again. Shared by the operators
(`lang.operators`: `t + array`) and NumPy's functions (`lang.arrays`: `np.exp(t)`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core.dtypes import BF16
from ..core.tensor import (
    VMAP_STORAGE,
    Tensor,
    _GradMode,
    batched,
    check_unresolved,
    grad_enabled,
    numpy_data,
    on_meta,
    own,
)

NOT_A_TENSOR = (
    "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
)


# NumPy 2's DeprecationWarnings for PyTorch's old-style `Tensor.__array_wrap__(array)` (a
# ufunc's result on a tensor made a tensor again) and `Tensor.__array__(dtype)` (np.array(t)
# asks for copy=False first), shown at the program's line that calls NumPy.
WRAP_WARNING = (
    "__array_wrap__ must accept context and return_scalar arguments (positionally) in the "
    "future. (Deprecated NumPy 2.0)"
)
COPY_WARNING = (
    "__array__ implementation doesn't accept a copy keyword, so passing copy=False failed. "
    "__array__ must implement 'dtype' and 'copy' keyword arguments. To learn more, see the "
    "migration guide https://numpy.org/devdocs/numpy_2_0_migration_guide.html"
    "#adapting-to-changes-in-the-copy-keyword"
)


def numpy_warning(text: str) -> None:
    from .values import CURRENT

    if CURRENT:
        CURRENT[-1].python_warning(text, "DeprecationWarning")


def no_meta_array(t: Tensor) -> None:
    """A meta tensor has no values for NumPy: PyTorch's TypeError."""
    if on_meta(t):
        raise GradcliError(
            "can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the "
            "tensor to host memory first."
        ).mirror("TypeError")


def tensor_array(t: Tensor, force: bool = False) -> np.ndarray:
    """`x.numpy()`, and NumPy's reading of a tensor (`Tensor.__array__`): a NumPy view of the
    tensor's data, sharing its memory as in PyTorch (a change through the array is seen in the
    tensor, without a new version, as in PyTorch), refused as PyTorch does on a tensor that
    requires grad while grad mode is on (under `torch.no_grad()` PyTorch gives the array)."""
    if _GradMode.vmapped and batched(t):
        raise GradcliError(VMAP_STORAGE)
    no_meta_array(t)
    if t.requires_grad and grad_enabled() and not force:
        raise GradcliError(NOT_A_TENSOR)
    if t.data.dtype == BF16:  # NumPy has no bfloat16
        raise GradcliError("Got unsupported ScalarType BFloat16").mirror("TypeError")
    check_unresolved(t)
    own(t)  # the array shares the tensor's storage: lent data (`core.tensor.lend`) is copied
    return t.data.view()


def wrapped(out: Any, warn: bool = True) -> Tensor:
    """`Tensor.__array_wrap__`: NumPy's result of a ufunc on a tensor made a tensor (a 0-d
    one for a 0-d result; a bool result a uint8 tensor, PyTorch's workaround), with NumPy's
    DeprecationWarning for its old signature."""
    if warn:
        numpy_warning(WRAP_WARNING)
    arr = np.asarray(out)
    if arr.dtype == np.bool_:
        arr = arr.astype(np.uint8)
    return Tensor(numpy_data(arr))
