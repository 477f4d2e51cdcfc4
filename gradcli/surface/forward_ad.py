"""`torch.autograd.forward_ad`: `dual_level`, `make_dual`, `unpack_dual` (and
`enter_dual_level` / `exit_dual_level`), with PyTorch's results and error words.

A dual tensor is a view of its primal carrying a tangent at the active level (`core.dual`);
every op applied to one computes its result's tangent with the op's JVP rule as it runs.
"""

from __future__ import annotations

from typing import Any

from ..base.errors import GradcliError
from ..core import dual
from ..core import primitives as P
from ..core.dtypes import torch_name
from ..core.op import apply
from ..core.tensor import Tensor, pytype_name
from .printing import _repr

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual"]


def _error(message: str, cls: str = "RuntimeError") -> GradcliError:
    return GradcliError(message).mirror(cls).pytorch()


class UnpackedDualTensor(tuple):
    """`unpack_dual`'s result: a named pair `(primal, tangent)` (tangent None when absent)."""

    PROGRAM_ATTRIBUTES = ("primal", "tangent")
    __slots__ = ()

    def __new__(cls, primal: Tensor, tangent: Tensor | None) -> UnpackedDualTensor:
        return super().__new__(cls, (primal, tangent))

    @property
    def primal(self) -> Tensor:
        return self[0]

    @property
    def tangent(self) -> Tensor | None:
        return self[1]

    def __repr__(self) -> str:
        return f"UnpackedDualTensor(primal={_repr(self[0])}, tangent={_repr(self[1])})"

    __str__ = __repr__


def _level(level: Any, fn: str) -> int | None:
    current = dual.level()
    if level is None:
        return current
    if isinstance(level, bool) or not isinstance(level, int):
        raise _error(f"{fn}(): argument 'level' must be int, not {pytype_name(level)}", "TypeError")
    if current is None or level != current:
        raise _error(f"Invalid level given to {fn}")
    return level


def _floating(v: Any, what: str) -> None:
    if not isinstance(v, Tensor):
        raise _error(
            f"'{pytype_name(v)}' object has no attribute 'is_floating_point'", "AttributeError"
        )
    if v.dtype.kind not in "fc":
        raise _error(
            f"Expected {what} to be floating point or complex, but got: {torch_name(v.dtype)}",
            "ValueError",
        )


def make_dual(tensor: Any, tangent: Any, *, level: Any = None) -> Tensor:
    """A view of `tensor` whose tangent is `tangent`, at the active dual level."""
    if dual.level() is None and level is None:
        raise _error(dual.NO_LEVEL)
    _floating(tensor, "primal")
    _floating(tangent, "tangent")
    _level(level, "_make_dual")
    if tangent.shape != tensor.shape:
        raise _error(
            "Trying to set a forward gradient that has a different size than that of the "
            "original Tensor, this is not supported. Tensor is of size "
            f"{list(tensor.shape)} while the given forward gradient is of size "
            f"{list(tangent.shape)}."
        )
    if dual.tangent(tensor) is not None:
        raise _error(
            "Making a dual Tensor based on a Tensor that already has a forward gradient at "
            "the same level 0 is not supported."
        )
    out = apply(P.reshape, tensor, shape=tensor.shape)
    dual.set_tangent(out, tangent)
    return out


def unpack_dual(tensor: Any, *, level: Any = None) -> UnpackedDualTensor:
    """`(primal, tangent)` of `tensor` at the active level; outside one, `(tensor, None)`."""
    if not isinstance(tensor, Tensor):
        raise _error(
            "_unpack_dual(): argument 'dual' (position 1) must be Tensor, not "
            f"{pytype_name(tensor)}",
            "TypeError",
        )
    if dual.level() is None and level is None:
        return UnpackedDualTensor(tensor, None)
    _level(level, "_unpack_dual")
    d = dual.tangent(tensor)
    if d is None:
        return UnpackedDualTensor(tensor, None)
    with dual.suspended():  # the primal: a view without the tangent (PyTorch's Identity)
        primal = apply(P.reshape, tensor, shape=tensor.shape, label="torch::autograd::Identity")
    return UnpackedDualTensor(primal, d)


def enter_dual_level() -> int:
    """Enter a dual level and return it (PyTorch supports one at a time)."""
    return dual.enter()


def exit_dual_level(*, level: Any = None) -> None:
    """Leave the dual level: every dual tensor loses its tangent."""
    dual.leave(level)
