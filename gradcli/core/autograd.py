"""Reverse mode: undoing broadcasting, one backward pass over the recorded graph, and
`torch.autograd.backward` / `torch.autograd.grad` over it.

Backward collects the nodes an output depends on (`graph.ancestors`), walks them in reverse
creation order, and keeps the gradients of one pass in a dict of its own. VJP rules are
written with the engine's own operations, so with `create_graph=True` the gradient is itself
recorded and can be differentiated again; with it off, rules run with recording switched off.
Rules also accept an upstream gradient with leading batch axes (`nb` of them), which is how
one pass computes many VJPs at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from . import hooks
from . import primitives as P
from .graph import ancestors
from .op import Node, apply
from .tensor import Tensor, as_tensor, enable_grad, in_pass, no_grad

# --- backward ------------------------------------------------------------------------------

SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)


def unbroadcast(g: Tensor, shape: tuple[int, ...], nb: int) -> Tensor:
    """Sum `g` (with `nb` leading batch axes) down to `nb` batch axes + `shape`.

    The one place where broadcasting is undone: every rule returns gradients in the broadcast
    shape and the engine reduces them here.
    """
    if g.shape[nb:] == tuple(shape):
        return g
    lead = g.ndim - nb - len(shape)
    axes = list(range(nb, nb + lead))
    for i, s in enumerate(shape):
        if s == 1 and g.shape[nb + lead + i] != 1:
            axes.append(nb + lead + i)
    if axes:
        g = apply(P.sum, g, dim=tuple(axes), keepdim=True, label="SumBackward1")
    return apply(P.reshape, g, shape=g.shape[:nb] + tuple(shape), label="ViewBackward0")


def _check_gradient(out: Tensor, grad: Any, index: int) -> Tensor:
    if grad is None:
        if out.data.size != 1:
            raise GradcliError(
                "grad can be implicitly created only for scalar outputs",
                hint="pass gradient= with the output's shape "
                f"{list(out.shape)}, e.g. torch.ones_like(out), or reduce the output "
                "with .sum() first",
            )
        return Tensor(np.ones(out.shape, dtype=out.dtype))
    g = as_tensor(grad, like=out)
    if g.shape != out.shape:
        if g.numel() == out.numel() and g.ndim <= 1 and out.numel() == 1:
            # PyTorch accepts a one-element gradient for a one-element output.
            return Tensor(g.data.reshape(out.shape).astype(out.dtype))
        raise GradcliError(
            f"Mismatch in shape: grad_output[{index}] has a shape of "
            f"torch.Size({list(g.shape)}) and output[{index}] has a shape of "
            f"torch.Size({list(out.shape)}).",
            hint="the gradient must have exactly the output's shape",
        )
    if g.dtype != out.dtype and g.dtype.kind == "f" and out.dtype.kind == "f":
        g = Tensor(g.data.astype(out.dtype))
    return g


def run_backward(
    roots: Sequence[Tensor],
    root_grads: Sequence[Tensor],
    *,
    nb: int = 0,
    create_graph: bool = False,
    retain_graph: bool = True,
    capture: Sequence[Tensor] = (),
    check_freed: bool = True,
    trace: Callable[[Node, Tensor, tuple], None] | None = None,
) -> dict[int, tuple[Tensor, Tensor]]:
    """One reverse pass. Returns the pass's gradients, `id(tensor) -> (tensor, gradient)`, for
    every leaf reached and for every tensor in `capture` (which may be intermediates).

    `root_grads[i]` has shape `nb batch axes + roots[i].shape`.
    """
    grads: dict[int, Tensor] = {}
    objs: dict[int, Tensor] = {}
    for r, g in zip(roots, root_grads):
        k = id(r)
        objs[k] = r
        grads[k] = apply(P.add, grads[k], g) if k in grads else g

    captured: dict[int, Tensor] = {}
    capture_ids = {id(t): t for t in capture}
    retained: list[tuple[Tensor, Tensor]] = []
    mode = enable_grad() if create_graph else no_grad()
    # One errstate for the whole pass (not one per node): 0/0 at kinks is handled by the rules.
    with mode, np.errstate(all="ignore"), in_pass():
        for n in reversed(ancestors(roots)):
            hooks.observer.tick()
            key = id(n.out)
            g = grads.pop(key, None)
            if g is None:
                continue
            if key in capture_ids:
                captured[key] = g
            if n.out.retains_grad and nb == 0:
                retained.append((n.out, g))
            if n.freed and check_freed:
                raise GradcliError(
                    SECOND_BACKWARD,
                    hint="pass retain_graph=True to the "
                    "first backward() that goes through this graph",
                )
            gs = n.op.vjp(g, n.out, *n.inputs, **n.params)
            if trace is not None:
                trace(n, g, gs)
            for t, gi in zip(n.inputs, gs):
                if gi is None or not t.requires_grad:
                    continue
                gi = unbroadcast(as_tensor(gi, like=t), t.shape, nb)
                k = id(t)
                objs[k] = t
                grads[k] = apply(P.add, grads[k], gi) if k in grads else gi
            if not retain_graph and n.op.saves:
                n.freed = True
    for t_id in capture_ids:
        if t_id in grads and t_id not in captured:
            captured[t_id] = grads[t_id]
    for t, g in retained:
        t.grad = g if t.grad is None else apply(P.add, t.grad, g)
    grads.update(captured)
    return {k: (objs[k], g) for k, g in grads.items()}


def _roots_and_grads(outputs: Any, grads: Any) -> tuple[list[Tensor], list[Tensor]]:
    outs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    if (
        grads is None
        or isinstance(grads, (Tensor, int, float, np.ndarray))
        or (
            isinstance(grads, list)
            and grads
            and not isinstance(grads[0], (Tensor, type(None), np.ndarray))
        )
    ):
        gl = [grads] if len(outs) == 1 else [grads] * len(outs)
    else:
        gl = list(grads)
    if len(gl) != len(outs):
        raise GradcliError(
            f"grad requires one gradient per output: got {len(gl)} gradients for "
            f"{len(outs)} outputs"
        )
    for o in outs:
        if not isinstance(o, Tensor):
            raise GradcliError(f"expected a Tensor to differentiate, got {type(o).__name__}")
        if not o.requires_grad:
            raise GradcliError(
                "element 0 of tensors does not require grad and does not have a grad_fn",
                hint="create the inputs with requires_grad=True",
            )
    return outs, [_check_gradient(o, g, i) for i, (o, g) in enumerate(zip(outs, gl))]


def backward(
    outputs: Any,
    gradients: Any = None,
    *,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Sequence[Tensor] | None = None,
) -> None:
    """`torch.autograd.backward`: accumulate into the `.grad` of leaves (or of `inputs`)."""
    outs, gl = _roots_and_grads(outputs, gradients)
    retain = create_graph if retain_graph is None else retain_graph
    capture = list(inputs) if inputs else []
    wanted = {id(c) for c in capture}
    got = run_backward(outs, gl, create_graph=create_graph, retain_graph=retain, capture=capture)
    for t, g in got.values():
        # Without `inputs`: the leaves; with it: exactly those tensors.
        if not t.requires_grad or (id(t) not in wanted if capture else t.node is not None):
            continue
        if not create_graph:
            # A copy: the gradient may be the caller's own upstream array (or shared with
            # another leaf's), and `.grad.zero_()` must never reach those.
            g = Tensor(np.array(g.data))
        t.grad = g if t.grad is None else apply(P.add, t.grad, g)


def grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    allow_unused: bool | None = None,
    materialize_grads: bool = False,
) -> tuple[Tensor | None, ...]:
    """`torch.autograd.grad`: the gradients, returned, with no `.grad` touched."""
    outs, gl = _roots_and_grads(outputs, grad_outputs)
    ins = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    for t in ins:
        if not isinstance(t, Tensor) or not t.requires_grad:
            raise GradcliError("One of the differentiated Tensors does not require grad")
    retain = create_graph if retain_graph is None else retain_graph
    got = run_backward(outs, gl, create_graph=create_graph, retain_graph=retain, capture=ins)
    result: list[Tensor | None] = []
    for i, t in enumerate(ins):
        g = got[id(t)][1] if id(t) in got else None
        if g is None:
            if materialize_grads:
                g = Tensor(np.zeros(t.shape, dtype=t.dtype))
            elif not allow_unused:
                raise GradcliError(
                    "One of the differentiated Tensors appears to not have been used in the "
                    "graph. Set allow_unused=True if this is the desired behavior.",
                    hint=f"input {i} does not influence the output",
                )
        result.append(g)
    return tuple(result)


def _tensor_backward(
    self: Tensor,
    gradient: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Sequence[Tensor] | None = None,
) -> None:
    """Accumulate d(self)/d(leaf), weighted by `gradient`, into each leaf's `.grad`."""
    backward(
        [self], [gradient], retain_graph=retain_graph, create_graph=create_graph, inputs=inputs
    )


# `Tensor` is defined below the records this module applies, so its method is installed here.
Tensor.backward = _tensor_backward  # type: ignore[attr-defined]
