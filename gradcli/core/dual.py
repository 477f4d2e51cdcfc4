"""Dual tensors: forward-mode AD as ops run (PyTorch's `torch.autograd.forward_ad`).

Inside a dual level (`enter` / `leave`, one level at a time as in PyTorch), a tensor may carry
a tangent. `apply` calls `carry` after every op while a level is active (one class attribute
checked, `_GradMode.dual`, costs nothing otherwise): when an input has a tangent, the output's
is computed with the op's JVP rule (`core.forward.jvp`, the same rule the recorded-graph
forward mode uses). The tangent is recorded in the graph (differentiable) when grad mode is on
and an input or a tangent requires grad, as PyTorch records it. Leaving the level drops every
tangent. Tangents are kept beside the tensors (by id, with a weak reference), not in them.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from . import hooks
from .tensor import Tensor, _GradMode, enable_grad, no_grad

# id(tensor) -> (a weak reference to it, its tangent), while a level is active.
TANGENTS: dict[int, tuple[weakref.ref, Tensor]] = {}
# Leading batch axes of every tangent at the active level: 0 for a program's level, 1 inside
# `functional.jacobian(strategy="forward-mode")` (one tangent per input element, as PyTorch's
# vmap over forward AD).
BATCH = [0]

NESTED = "Nested forward mode AD is not supported at the moment"
NO_LEVEL = (
    "Trying to create a dual Tensor for forward AD but no level exists, make sure to "
    "enter_dual_level() first."
)


def _error(message: str, cls: str = "RuntimeError") -> GradcliError:
    e = GradcliError(message).mirror(cls)
    e.pytorch_words = True  # type: ignore[attr-defined]
    return e


def level() -> int | None:
    """The active level (0), or None."""
    return 0 if _GradMode.dual else None


def enter(nb: int = 0) -> int:
    """Enter a dual level (PyTorch supports one at a time) whose tangents carry `nb` leading
    batch axes."""
    if _GradMode.dual:
        raise _error(NESTED)
    TANGENTS.clear()
    BATCH[0] = nb
    _GradMode.dual = True
    return 0


def leave(lvl: int | None = None) -> None:
    """Leave the level: every dual tensor loses its tangent."""
    if not _GradMode.dual:
        raise _error("Dual level must be a positive number.")
    if lvl is not None and lvl != 0:
        raise _error(
            "Trying to exit a forward AD level that was not the last one that was created. "
            "This is not supported."
        )
    _GradMode.dual = False
    BATCH[0] = 0
    TANGENTS.clear()


def tangent(t: Any) -> Tensor | None:
    """`t`'s tangent at the active level (None: none, or no level)."""
    if not _GradMode.dual:
        return None
    e = TANGENTS.get(id(t))
    if e is None or e[0]() is not t:
        return None
    return e[1]


def set_tangent(t: Tensor, d: Tensor | None) -> None:
    """Give `t` the tangent `d` (None: remove it)."""
    k = id(t)
    if d is None:
        TANGENTS.pop(k, None)
        return

    def gone(ref: weakref.ref, k: int = k) -> None:
        e = TANGENTS.get(k)
        if e is not None and e[0] is ref:
            del TANGENTS[k]

    TANGENTS[k] = (weakref.ref(t, gone), d)


class suspended:  # noqa: N801 - a context manager
    """No tangents carried inside (a JVP rule runs on primal values, as PyTorch's formulas)."""

    def __enter__(self) -> None:
        self.prev = _GradMode.dual
        _GradMode.dual = False

    def __exit__(self, *exc: object) -> None:
        _GradMode.dual = self.prev


def op_name(op: Any) -> str:
    """The name PyTorch's refusal gives an op: its backward node's name without the
    `Backward0` suffix, in lower case (`_unique2`, `slogdet`...)."""
    name = str(op.torch_name).removeprefix("torch::autograd::")
    for tail in ("Backward0", "Backward1", "Backward"):
        if name.endswith(tail):
            name = name[: -len(tail)]
            break
    out = "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")
    return out or op.name


def custom_refused() -> GradcliError:
    """A custom Function without a `jvp` staticmethod applied to a dual tensor (one with it
    runs it: `ops.custom._with_jvp`)."""
    return _error(
        "You must implement the jvp function for custom autograd.Function to use it with "
        "forward mode AD.",
        "NotImplementedError",
    )


# Records PyTorch has no forward-mode formula for (its operator's name, for its error): a dual
# tensor through one fails as in PyTorch (gradcli's own forward-mode Jacobians still use the
# record's rule). Filled in by the op families.
# (cdist's entry is written here rather than by ops.matrices, which start-up loads: importing
# this module there cost every command ~0.3 ms)
NO_FORWARD_AD: dict[str, str] = {"cdist": "_cdist_forward", "pdist": "_pdist_forward"}


def not_implemented(aten: str) -> GradcliError:
    """PyTorch's refusal of an op with no forward derivative (`aten`: its ATen name)."""
    return _error(
        f"Trying to use forward AD with {aten} that does not support it because it has not "
        "been implemented yet.\nPlease file an issue to PyTorch at "
        "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we "
        "can prioritize its implementation or submit a PR adding the implementation to "
        "derivatives.yaml",
        "NotImplementedError",
    )


def carry(op: Any, inputs: tuple, params: dict, out: Tensor) -> None:
    """After `op` ran on `inputs` (giving `out`), inside a dual level: `out`'s tangent from the
    inputs' tangents, when any has one."""
    nondiff = op.nondiff
    dots = [None if i in nondiff else tangent(t) for i, t in enumerate(inputs)]
    if all(d is None for d in dots):
        return
    if op.kind == "custom":
        raise custom_refused()
    if op.name in NO_FORWARD_AD:
        raise not_implemented(NO_FORWARD_AD[op.name])
    from .forward import Equation, dots_shape, jvp

    nb = BATCH[0]

    attached = _GradMode.enabled and (
        any(t.requires_grad for t in inputs) or any(d.requires_grad for d in dots if d is not None)
    )
    try:
        with suspended(), enable_grad() if attached else no_grad(), np.errstate(all="ignore"):
            d = jvp(Equation(op, inputs, params, out), dots, nb, attached)
    except GradcliError:
        raise
    except NotImplementedError as e:
        raise _error(
            f"Trying to use forward AD with {op_name(op)} that does not support it because it "
            "has not been implemented yet.",
            "NotImplementedError",
        ) from e
    if out.dtype.kind not in "fc":
        return  # an integer or boolean result has no tangent
    want = dots_shape(dots, nb) + out.shape
    if d is None:
        d = Tensor(np.zeros(want, dtype=out.dtype))
    elif d.shape != want:
        from . import primitives as P
        from .op import apply

        d = (
            apply(P.expand, d, shape=want)
            if attached
            else Tensor(np.broadcast_to(d.data, want).copy())
        )
    set_tangent(out, d)


hooks.carry = carry
hooks.tangent = tangent
