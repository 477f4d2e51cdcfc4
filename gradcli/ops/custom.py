"""User-defined gradients: a custom `torch.autograd.Function`, or `f` with a companion
`f_backward`. Each call records a node of kind "custom" whose VJP is the user's own."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..base.errors import GradcliError
from ..core.op import Node, Op, apply
from ..core.tensor import Tensor, as_tensor, grad_enabled, no_grad
from .shape import reshape_to, select, stack


def _custom_vjp(
    g: Tensor, out: Tensor, *inputs: Tensor, _vjp: Callable[[Tensor], Any], _name: str
) -> tuple:
    nb = g.ndim - out.ndim
    if nb:
        # A user's backward is written for one upstream gradient: run it per batch element.
        flat = reshape_to(g, (-1,) + out.shape)
        per = [
            _custom_vjp(select(flat, i), out, *inputs, _vjp=_vjp, _name=_name)
            for i in range(flat.shape[0])
        ]
        return tuple(
            None
            if per[0][k] is None
            else reshape_to(
                apply(stack, *[p[k] for p in per], dim=0), g.shape[:nb] + inputs[k].shape
            )
            for k in range(len(inputs))
        )
    res = _vjp(g)
    res = res if isinstance(res, tuple) else (res,)
    if len(res) != len(inputs):
        raise GradcliError(
            f"function {_name}Backward returned an incorrect number of gradients (expected "
            f"{len(inputs)}, got {len(res)})"
        )
    out_grads = []
    for i, (r, t) in enumerate(zip(res, inputs)):
        if r is None:
            out_grads.append(None)
            continue
        r = as_tensor(r, like=t)
        if r.shape != t.shape:
            raise GradcliError(
                f"function {_name}Backward returned an invalid gradient at index {i} - got "
                f"{list(r.shape)} but expected shape compatible with {list(t.shape)}"
            )
        out_grads.append(r)
    return tuple(out_grads)


def custom_apply(
    name: str,
    inputs: Sequence[Tensor],
    forward: Callable[[], Any],
    vjp: Callable[[Tensor], Any],
    label: str | None = None,
) -> Tensor:
    """Run a user-defined function whose gradient is the user's own `vjp` (a custom
    `torch.autograd.Function`, or `f` with a companion `f_backward`)."""
    with no_grad():
        result = forward()
    if not isinstance(result, Tensor):
        raise GradcliError(
            f"{name} must return a single Tensor with a custom gradient, got "
            f"{type(result).__name__}"
        )
    # The output is the very tensor forward returned when that is a fresh one, so that a
    # ctx.save_for_backward(result) in forward saves the graph's output, as in PyTorch (its
    # backward is then differentiable again through it).
    fresh = (
        result.node is None and not result.requires_grad and all(result is not t for t in inputs)
    )
    out = result if fresh else Tensor(result.data)
    if grad_enabled() and any(t.requires_grad for t in inputs):
        op = Op(
            name=name,
            forward=lambda *a: result.data,
            vjp=_custom_vjp,
            torch_name=label or f"{name}Backward",
            formula="user-defined",
            kind="custom",
        )
        out.requires_grad = True
        out.node = Node(op, tuple(inputs), {"_vjp": vjp, "_name": name}, out, label)
    return out
