"""PyTorch's control-flow operators as eager PyTorch runs them: `torch.cond`, and
`torch._higher_order_ops.while_loop`, `scan` and `map`.

PyTorch (not compiling) checks the arguments in Python, then traces the branch or body with
torch.compile and runs it; gradcli checks the same arguments with PyTorch's words and calls
the program's functions through the interpreter, recording their operations as any other.
The outputs are then handed back as PyTorch's operator hands them: new tensors (never one of
the inputs), and those that require grad hang from one node named as PyTorch's
(`CondAutogradOpBackward`, `WhileLoopAutogradOpBackward`, `ScanAutogradOpBackward`,
`MapAutogradOpBackward`) whose backward passes the gradients on to the recorded operations
(the same gradients PyTorch's joint graph of the branch computes).

What PyTorch's tracer alone finds is checked after the call where gradcli can see it: an
output that is (a view of) an input, an input changed in place while gradients are recorded.
PyTorch also traces the branch not taken (its outputs must match the other's); gradcli runs
only the branch taken."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..base.errors import GradcliError, NotSupported
from ..core.tensor import Tensor, grad_enabled, no_grad
from ..ops.custom import custom_apply
from ..surface import basics as B
from ..surface import functional as F
from ..surface import rearrange as R
from . import pytree as T
from .text import to_str


def _call(fn: Any, *args: Any) -> Any:
    """The program's function called through the running interpreter (its limits)."""
    from .values import current

    return current().call(fn, list(args), {}, None)


def _callable(fn: Any) -> bool:
    from .builtins import _callable as is_callable

    return is_callable(fn)


def _error(message: str) -> GradcliError:
    return GradcliError(message).mirror("RuntimeError")


def _traced(what: str, hint: str) -> GradcliError:
    """What PyTorch's tracer (torch.compile's, under the operator) refuses: its
    UncapturedHigherOrderOpError, a RuntimeError."""
    return GradcliError(
        "This higher order operator doesn't work unless it is captured completely with "
        f"torch.compile. Got graph break/error:\n\n{what}",
        hint=hint,
    ).mirror("UncapturedHigherOrderOpError")


def _aliasing(hop: str) -> GradcliError:
    return _traced(
        f"Encountered aliasing during higher order op tracing\n  Higher Order Operator: {hop}",
        "Replace `return input` with `return input.clone()` to avoid aliasing.",
    )


def _mutation(hop: str) -> GradcliError:
    return _traced(
        f"Encountered input mutation during higher order op tracing\n  Higher Order "
        f"Operator: {hop}",
        "clone the input before changing it in place (x = x.clone())",
    )


def _shares(a: Tensor, b: Tensor) -> bool:
    return a is b or np.may_share_memory(a.data, b.data)


def _checked_outputs(hop: str, inputs: list, outputs: list, versions: list) -> None:
    """PyTorch's tracer's checks: no output is (a view of) an input, no input was changed in
    place while gradients are recorded."""
    tensors = [t for t in inputs if isinstance(t, Tensor)]
    if grad_enabled() and any(t._version != v for t, v in zip(tensors, versions)):
        raise _mutation(hop)
    for o in outputs:
        if isinstance(o, Tensor) and any(_shares(o, t) for t in tensors):
            raise _aliasing(hop)


def _versions(inputs: list) -> list:
    return [t._version for t in inputs if isinstance(t, Tensor)]


def _handed_back(out: Any, name: str) -> Any:
    """The operator's outputs (a pytree): each tensor a new one; those that require grad
    outputs of one node `{name}Backward` whose backward is the identity onto what the program's
    functions recorded."""
    leaves, spec = T.tree_flatten(out)
    fresh = list(leaves)
    graded = [
        i
        for i, v in enumerate(leaves)
        if isinstance(v, Tensor) and v.requires_grad and grad_enabled() and v.dtype.kind in "fc"
    ]
    with no_grad():
        for i, v in enumerate(leaves):
            if isinstance(v, Tensor) and i not in graded:
                fresh[i] = F.clone(v)
    if graded:
        inputs = [leaves[i] for i in graded]

        def forward() -> Any:
            made = tuple(F.clone(t) for t in inputs)
            return made if len(made) > 1 else made[0]

        def vjp(*grads: Any) -> tuple:
            return tuple(grads)

        made = custom_apply(name, inputs, forward, vjp, label=f"{name}Backward")
        made = made if isinstance(made, tuple) else (made,)
        for i, m in zip(graded, made):
            fresh[i] = m
    return T.tree_unflatten(fresh, spec)


def _tensor_leaves(tree: Any) -> tuple[list, bool]:
    leaves = T.tree_leaves(tree)
    return leaves, all(isinstance(v, Tensor) for v in leaves)


def cond(pred: Any, true_fn: Any, false_fn: Any, operands: Any = ()) -> Any:
    """`torch.cond(pred, true_fn, false_fn, operands)`."""
    if isinstance(pred, (bool, int, float)):  # PyTorch's eager case: the branch itself
        return _call(true_fn if pred else false_fn, *operands)
    if not isinstance(pred, Tensor):
        raise _error(f"Expected pred to be bool or tensor, but got {to_str(pred)}.")
    if pred.numel() != 1:
        raise _error(f"Expected pred to be bool or single-element tensor, but got {to_str(pred)}.")
    if not _callable(true_fn) or not _callable(false_fn):
        raise _error("Expect both branches to be callable.")
    if not isinstance(operands, (tuple, list)) or not _tensor_leaves(operands)[1]:
        raise _error(
            "Expect operands to be a tuple of possibly nested dict/list/tuple that only "
            f"consists of tensor leaves, but got {to_str(operands)}."
        )
    inputs = T.tree_leaves(operands)
    for i, a in enumerate(inputs):
        if any(_shares(a, b) for b in inputs[:i]):
            raise _aliasing("torch.cond")
    versions = _versions(inputs)
    out = _call(true_fn if bool(pred.data.reshape(-1)[0]) else false_fn, *operands)
    leaves = T.tree_leaves(out)
    for v in leaves:
        if not isinstance(v, (Tensor, int)) or isinstance(v, bool):
            raise NotSupported(
                f"a torch.cond branch that returns a {type(v).__name__} is not supported "
                "(PyTorch's branches return tensors, or ints)",
                hint="return tensors (torch.tensor(value))",
            )
    _checked_outputs("torch.cond", inputs, leaves, versions)
    return _handed_back(out, "CondAutogradOp")


def while_loop(cond_fn: Any, body_fn: Any, carried_inputs: Any) -> Any:
    """`torch._higher_order_ops.while_loop(cond_fn, body_fn, carried_inputs)`: the tuple of
    the carried values once cond_fn says False."""
    if not _callable(cond_fn) or not _callable(body_fn):
        raise _error("Expect cond_fn and body_fn to be callable.")
    leaves, spec = T.tree_flatten(carried_inputs)
    if not all(isinstance(v, (Tensor, int)) for v in leaves):
        from .builtins import type_of

        types = ", ".join(repr(type_of(v)) for v in leaves) + ("," if len(leaves) == 1 else "")
        raise GradcliError(
            f"{to_str(leaves)} can only be of (<class 'torch.Tensor'>, <class 'int'>, "
            f"<class 'torch.SymInt'>) but got ({types})"
        ).mirror("AssertionError")

    def unflat(flat: Any) -> Any:
        return T.tree_unflatten(list(flat), spec)

    def test(values: Any) -> bool:
        pred = _call(cond_fn, *unflat(values))
        if isinstance(pred, bool):
            return pred
        if not isinstance(pred, Tensor) or pred.dtype != np.bool_:
            raise _traced(
                "torch.while_loop: unsupported cond_fn return type",
                "return a boolean scalar tensor (i < n) or a bool from cond_fn",
            )
        if pred.shape != ():
            raise _error(
                f"cond_fn must return a boolean scalar tensor or a boolean but got {to_str(pred)}"
            )
        return bool(pred.data.reshape(-1)[0])

    versions = _versions(leaves)
    values: Any = tuple(leaves)
    out: Any = tuple(values)
    while test(values):
        out = _call(body_fn, *unflat(values))
        flat = T.tree_leaves(out)
        if len(flat) != len(leaves):
            raise _traced(
                "torch.while_loop: body_fn's outputs do not match carried_inputs "
                f"({len(flat)} outputs for {len(leaves)} carried values)",
                "return one value per carried input, in the same structure",
            )
        _checked_outputs("while_loop", list(values), flat, _versions(list(values)))
        values = tuple(flat)
    _checked_outputs("while_loop", leaves, [], versions)
    return _handed_back(out, "WhileLoopAutogradOp")


def _stacked(slices: list[Any]) -> Any:
    """Outputs of each step (pytrees of one structure) stacked along a new first dim."""
    flats = [T.tree_flatten(s) for s in slices]
    spec = flats[0][1]
    columns = zip(*(f for f, _ in flats))
    return T.tree_unflatten([F.stack(list(c)) for c in columns], spec)


def scan(
    combine_fn: Any, init: Any, xs: Any, *, dim: Any = 0, reverse: Any = False
) -> tuple[Any, Any]:
    """`torch._higher_order_ops.scan(combine_fn, init, xs, dim=0, reverse=False)`: the
    final carry and the stacked outputs of each step."""
    leaves_init, spec_init = T.tree_flatten(init)
    leaves_xs, spec_xs = T.tree_flatten(xs)
    if not leaves_xs:
        return init, []
    if not _callable(combine_fn):
        raise _error(f"Combine_fn must be a callable, but got {to_str(combine_fn)}")
    if not isinstance(leaves_xs[0], Tensor):
        raise _error(f"All xs leaves must be a Tensor but got {to_str(leaves_xs[0])}")
    ndim = leaves_xs[0].ndim
    if isinstance(dim, int) and not isinstance(dim, bool):
        if not (-max(ndim, 1) <= dim < max(ndim, 1)):
            raise GradcliError(
                f"Dimension out of range (expected to be in range of [{-max(ndim, 1)}, "
                f"{max(ndim, 1) - 1}], but got {dim})"
            ).mirror("IndexError")
        dim = dim % max(ndim, 1)
    else:
        raise _error("Dim must be an int, but got " + f"<class '{type(dim).__name__}'>")
    if not isinstance(reverse, bool):
        raise _error("Reverse must be a bool, but got " + f"<class '{type(reverse).__name__}'>")
    if not leaves_init:
        raise _error("scan() operator requires init leaves.")
    for x in leaves_init:
        if not isinstance(x, Tensor):
            raise _error(f"All init leaves must be a Tensor but got {to_str(x)}")
    for x in leaves_xs:
        if not isinstance(x, Tensor):
            raise _error(f"All xs leaves must be a Tensor but got {to_str(x)}")
    if any(x.ndim <= dim or x.shape[dim] == 0 for x in leaves_xs):
        raise _error(
            "All xs leaves must at least have 'dim' number of dimensions and scan dimension > 0"
        )
    moved = [B.movedim(x, dim, 0) if dim != 0 else x for x in leaves_xs]
    if reverse:
        moved = [R.flip(x, [0]) for x in moved]
    steps = moved[0].shape[0]
    if any(x.shape[0] != steps for x in moved):
        raise _error(
            "All xs leaves must have the same size along the scan dimension, got "
            f"{[x.shape[0] for x in moved]}"
        )
    inputs = leaves_init + leaves_xs
    versions = _versions(inputs)
    carry = init
    ys = []
    for i in range(steps):
        x_i = T.tree_unflatten([B.select(x, 0, i) for x in moved], spec_xs)
        out = _call(combine_fn, carry, x_i)
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise _traced(
                "torch.scan: improper combine_fn number of returns",
                "return two pytrees from combine_fn: the next carry and this step's output",
            )
        new_carry, y = out
        carry_leaves, carry_spec = T.tree_flatten(new_carry)
        if carry_spec.shown() != spec_init.shown():
            raise _error(
                f"The tree structure of the inits and the carries are not identical.\n"
                f"{spec_init.shown()} vs. {carry_spec.shown()}"
            )
        _checked_outputs("scan", inputs, carry_leaves + T.tree_leaves(y), versions)
        carry = new_carry
        ys.append(y)
    carry, out_ys = _handed_back((carry, _stacked(ys)), "ScanAutogradOp")
    if reverse:
        out_ys = T.tree_unflatten(
            [R.flip(t, [0]) for t in T.tree_leaves(out_ys)], T.tree_structure(out_ys)
        )
    if dim != 0:
        flat, spec = T.tree_flatten(out_ys)
        out_ys = T.tree_unflatten([B.movedim(t, 0, dim) if dim < t.ndim else t for t in flat], spec)
    return carry, out_ys


def map_(f: Any, xs: Any, *args: Any) -> Any:
    """`torch._higher_order_ops.map(f, xs, *args)`: f of each slice of xs along its first
    dim (with args), stacked."""
    flat_xs, spec_xs = T.tree_flatten(xs)
    if not all(isinstance(t, Tensor) for t in flat_xs):
        raise _error(f"Mapped xs can only consist of tensors. Got xs {to_str(flat_xs)}.")
    if not flat_xs:
        raise _error("Mapped xs can only consist of tensors. Got xs [].")
    shapes = [t.shape for t in flat_xs]
    if any(len(s) == 0 for s in shapes):
        raise GradcliError("tuple index out of range").mirror("IndexError")
    n = shapes[0][0]
    if n == 0:
        raise _error("Leading dimensions of mapped xs cannot be 0.")
    if any(s[0] != n for s in shapes):
        raise _error(
            "Leading dimensions of mapped xs must be consistent. Got shapes "
            f"[{', '.join('torch.Size(' + str(list(s)) + ')' for s in shapes)}]."
        )
    inputs = flat_xs + T.tree_leaves(args)
    versions = _versions(inputs)
    outs = []
    for i in range(n):
        out = _call(f, T.tree_unflatten([B.select(t, 0, i) for t in flat_xs], spec_xs), *args)
        _checked_outputs("map", inputs, T.tree_leaves(out), versions)
        outs.append(out)
    return _handed_back(_stacked(outs), "MapAutogradOp")


HOPS: dict[str, Callable[..., Any]] = {
    "cond": cond,
    "while_loop": while_loop,
    "scan": scan,
    "map": map_,
}
