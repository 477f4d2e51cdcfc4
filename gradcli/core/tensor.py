"""`Tensor`: a NumPy array with autograd bookkeeping, grad mode, and converting values to
tensors.

A tensor that an operation recorded has a `node` (see `core.op`); `backward` is installed by
`core.autograd` (it needs the records of `core.primitives`, which need this class), the
operators by `ops.arithmetic`, the PyTorch methods and the repr by `surface`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError
from . import hooks


class _GradMode:
    enabled = True
    in_pass = False  # inside run_backward's loop (which sets NumPy's errstate once)


class no_grad:  # noqa: N801 - named like torch.no_grad
    """Context manager: operations inside record no graph."""

    def __enter__(self) -> None:
        self.prev = _GradMode.enabled
        _GradMode.enabled = False

    def __exit__(self, *exc: object) -> None:
        _GradMode.enabled = self.prev


class enable_grad(no_grad):  # noqa: N801
    def __enter__(self) -> None:
        self.prev = _GradMode.enabled
        _GradMode.enabled = True


class in_pass:  # noqa: N801
    """Marks run_backward's loop, so `apply` can skip its own per-op errstate."""

    def __enter__(self) -> None:
        self.prev = _GradMode.in_pass
        _GradMode.in_pass = True

    def __exit__(self, *exc: object) -> None:
        _GradMode.in_pass = self.prev


def grad_enabled() -> bool:
    return _GradMode.enabled


class Settings:
    """Process-wide defaults a program runs with (set by `--dtype` / `--seed`)."""

    default_dtype: np.dtype = np.dtype(np.float64)
    seed: int = 0
    # Created on first use: importing numpy.random costs ~20 ms of start-up.
    _rng: Any = None

    @classmethod
    def rng(cls) -> Any:
        if cls._rng is None:
            cls._rng = np.random.default_rng(cls.seed)
        return cls._rng


class Tensor:
    """A NumPy array with autograd bookkeeping, mirroring `torch.Tensor`'s semantics."""

    __slots__ = ("data", "requires_grad", "grad", "node", "retains_grad", "name", "__weakref__")
    __array_priority__ = 1000  # so `ndarray * Tensor` defers to Tensor.__rmul__

    def __init__(self, data: Any, requires_grad: bool = False, dtype: Any = None) -> None:
        arr = np.asarray(data, dtype=dtype)
        if requires_grad and arr.dtype.kind != "f":
            raise GradcliError(
                "only Tensors of floating point dtype can require gradients",
                hint="gradcli tensors made from numbers are float64; this one holds "
                f"{arr.dtype} values",
            )
        self.data = arr
        if arr.nbytes >= hooks.REPORT_BYTES:
            hooks.observer.allocated(arr.nbytes)
        self.requires_grad = bool(requires_grad)
        self.grad: Tensor | None = None
        self.node: Any = None  # the `core.op.Node` that computed it, None for a leaf
        self.retains_grad = False
        self.name: str | None = None

    # --- plain properties -------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self.data.shape

    @property
    def ndim(self) -> int:
        return self.data.ndim

    @property
    def dtype(self) -> np.dtype:
        return self.data.dtype

    @property
    def is_leaf(self) -> bool:
        return self.node is None

    @property
    def grad_fn(self) -> Any:
        return self.node

    def numel(self) -> int:
        return int(self.data.size)

    def item(self) -> float:
        if self.data.size != 1:
            raise GradcliError(
                f"a Tensor with {self.data.size} elements cannot be converted to Scalar"
            )
        return self.data.reshape(()).item()

    def detach(self) -> Tensor:
        return Tensor(self.data)

    def numpy(self) -> np.ndarray:
        return self.data

    def retain_grad(self) -> None:
        if not self.requires_grad:
            raise GradcliError("can't retain_grad on Tensor that has requires_grad=False")
        if self.node is not None:
            self.retains_grad = True

    def requires_grad_(self, flag: bool = True) -> Tensor:
        if self.node is not None and not flag:
            raise GradcliError(
                "you can only change requires_grad flags of leaf variables.",
                hint="use .detach() to get a tensor that does not require grad",
            )
        if flag and self.data.dtype.kind != "f":
            raise GradcliError("only Tensors of floating point dtype can require gradients")
        self.requires_grad = bool(flag)
        return self

    def __repr__(self) -> str:  # PyTorch's exact repr is installed by `surface.printing`
        return f"Tensor({self.data!r}, requires_grad={self.requires_grad})"

    def __len__(self) -> int:
        if self.ndim == 0:
            raise GradcliError("len() of a 0-d tensor")
        return self.shape[0]

    def __bool__(self) -> bool:
        if self.data.size != 1:
            raise GradcliError(
                f"Boolean value of Tensor with more than one value is ambiguous "
                f"(it has {self.data.size})"
            )
        return bool(self.data.reshape(()))


def as_tensor(value: Any, like: Tensor | None = None) -> Tensor:
    """A Tensor for an operand: Tensors pass through, numbers take `like`'s float dtype."""
    if isinstance(value, Tensor):
        return value
    if like is not None and like.dtype.kind == "f" and isinstance(value, (int, float, bool)):
        return Tensor(np.asarray(value, dtype=like.dtype))
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError, OverflowError):
        arr = np.asarray(None)  # a ragged list: refused below
    if arr.dtype.kind not in "biuf":
        rect = " (a list must be rectangular and hold numbers)"
        raise GradcliError(
            f"expected a Tensor or a number, not {type(value).__name__}"
            + (rect if isinstance(value, (list, tuple)) else "")
        )
    if arr.dtype.kind in "iub" and not isinstance(value, np.ndarray):
        arr = arr.astype(np.float64)
    return Tensor(arr)


def constant(a: Any) -> Tensor:
    """A constant (no graph) Tensor of an array or of a tensor's data, e.g. a 0/1 mask from
    comparing values inside a VJP rule."""
    return Tensor(a.data if isinstance(a, Tensor) else a)


def mask_like(cond: np.ndarray, like: Tensor) -> Tensor:
    """A boolean array as a constant 0/1 Tensor of `like`'s dtype."""
    return Tensor(cond.astype(like.dtype))


def typename(v: Any) -> str:
    """A value's type as messages name it (`Tensor`, `list`, `None`...)."""
    if isinstance(v, Tensor):
        return "Tensor"
    return {list: "list", tuple: "tuple", str: "str", type(None): "None"}.get(
        type(v), type(v).__name__
    )


def data_array(data: Any, dtype: Any) -> np.ndarray:
    """Nested lists of numbers (or Tensors of one element) to an array, checked: the element
    limit, the nesting depth, numbers only, rectangular. Without `dtype`: bool for booleans
    only, else the default float dtype."""
    if isinstance(data, Tensor):
        return data.data.astype(Settings.default_dtype if dtype is None else dtype, copy=True)
    count = [0]

    def walk(v: Any, depth: int) -> Any:
        if depth > 32:
            raise GradcliError("tensor data is nested too deeply", hint="at most 32 levels")
        if isinstance(v, (list, tuple)):
            return [walk(e, depth + 1) for e in v]
        if isinstance(v, Tensor):
            if v.data.size != 1:
                raise GradcliError(
                    "only one element tensors can be converted to Python scalars",
                    hint="use torch.stack or torch.cat to combine tensors (keeps gradients)",
                )
            v = v.data.reshape(()).item()
        if isinstance(v, bool) or isinstance(v, (int, float)):
            count[0] += 1
            if count[0] > limits.LIST_ITEMS.value:
                limits.LIST_ITEMS.check(count[0], "the number of numbers in the tensor data")
            return v
        raise GradcliError(
            f"Could not infer dtype of {typename(v)}",
            expected="numbers, or nested lists of numbers",
        )

    clean = walk(data, 0)
    all_bool = count[0] > 0 and _all_bool(clean)
    try:
        if dtype is None:
            arr = np.array(clean, dtype=bool if all_bool else Settings.default_dtype)
        else:
            arr = np.array(clean, dtype=dtype)
    except (ValueError, OverflowError):
        raise GradcliError(
            "expected a rectangular nested list (every row the same length)",
            found="rows of different lengths (a ragged list)",
        ) from None
    return arr


def _all_bool(v: Any) -> bool:
    stack = [v]
    while stack:
        e = stack.pop()
        if isinstance(e, list):
            stack.extend(e)
        elif not isinstance(e, bool):
            return False
    return True
