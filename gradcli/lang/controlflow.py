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
output that is (a view of) an input, an input changed in place while gradients are recorded,
a `print` in a body (a graph break). PyTorch also traces the branch of torch.cond not taken
(the two branches' outputs must agree in structure, dtype and dim): gradcli runs that branch
too, in the order PyTorch traces them, on copies of the operands, without recording gradients
and with the random generator's state put back, and checks the outputs as PyTorch merges
them; what it computes is thrown away. (Python state a branch changes, which PyTorch's tracer
refuses, is not undone.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..base.errors import GradcliError, NotSupported
from ..core import dtypes
from ..core.tensor import Tensor, grad_enabled, no_grad
from ..ops.custom import custom_apply
from ..surface import basics as B
from ..surface import functional as F
from ..surface import rearrange as R
from . import pytree as T
from .text import to_str

# PyTorch's names of the operators in its tracer's messages.
COND, WHILE, SCAN, MAP = (
    "torch.cond",
    "torch.while_loop",
    "torch.ops.higher_order.scan",
    "torch.ops.higher_order.map_impl",
)


def _call(hop: str, fn: Any, *args: Any) -> Any:
    """The program's function called through the running interpreter (its limits), as the
    body of the operator `hop`."""
    from .values import HOP_TRACING, current

    HOP_TRACING.append(hop)
    try:
        return current().call(fn, list(args), {}, None)
    finally:
        HOP_TRACING.pop()


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


def _checked_outputs(
    hop: str, inputs: list, outputs: list, versions: list, recording: bool | None = None
) -> None:
    """PyTorch's tracer's checks: no output is (a view of) an input, no input was changed in
    place while gradients are recorded."""
    tensors = [t for t in inputs if isinstance(t, Tensor)]
    recording = grad_enabled() if recording is None else recording
    if recording and any(t._version != v for t, v in zip(tensors, versions)):
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
        from .values import current

        return current().call(true_fn if pred else false_fn, list(operands), {}, None)
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
            raise _aliasing(COND)
    taken = bool(pred.data.reshape(-1)[0])
    recording = grad_enabled()
    other: Any = None
    if not taken:  # PyTorch traces the true branch first
        other = _speculated(true_fn, operands, recording)
    versions = _versions(inputs)
    out = _call(COND, true_fn if taken else false_fn, *operands)
    leaves = _returned(out)
    _checked_outputs(COND, inputs, leaves, versions)
    if taken:
        other = _speculated(false_fn, operands, recording)
    _merged(pred, operands, *((out, other) if taken else (other, out)))
    return _handed_back(out, "CondAutogradOp")


def _returned(out: Any) -> list:
    leaves = T.tree_leaves(out)
    for v in leaves:
        if v is None:
            raise _traced(
                "torch.cond: unsupported branch return type (constant non-int)\n  Higher Order "
                f"Operator: {COND}",
                "return tensors or ints from the branches",
            )
        if isinstance(v, (float, str)):
            raise _traced(
                f"HOP body output unsupported\n  Higher Order Operator: {COND}",
                "return tensors (torch.tensor(value)) or ints from the branches",
            )
        if not isinstance(v, (Tensor, int)) or isinstance(v, bool):
            raise NotSupported(
                f"a torch.cond branch that returns a {type(v).__name__} is not supported "
                "(PyTorch's branches return tensors, or ints)",
                hint="return tensors (torch.tensor(value))",
            )
    return leaves


def _speculated(fn: Any, operands: Any, recording: bool) -> Any:
    """The branch torch.cond does not take, traced as PyTorch traces it: run on copies of the
    operands, recording nothing, the random generator's state put back; its outputs are
    checked (aliasing, input mutation) and returned for the merge, then thrown away."""
    from ..surface import random as RNG

    leaves, spec = T.tree_flatten(operands)
    with no_grad():
        copies = [F.clone(t).requires_grad_(t.requires_grad) for t in leaves]
    copied = T.tree_unflatten(copies, spec)
    versions = _versions(copies)
    state = RNG.default_generator().get_state()
    try:
        with no_grad():
            out = _call(COND, fn, *copied)
    finally:
        RNG.default_generator().set_state(state)
    _checked_outputs(COND, copies, _returned(out), versions, recording)
    return out


def _fake(v: Any) -> str:
    """A tensor as PyTorch's tracer shows it: `FakeTensor(..., size=(2, 3), dtype=...)`."""
    if not isinstance(v, Tensor):
        return to_str(v)
    size = "(" + "".join(f"{n}, " for n in v.shape)[:-2] + ("," if v.ndim == 1 else "") + ")"
    text = f"FakeTensor(..., size={size}"
    if v.dtype != np.float32:
        text += f", dtype={dtypes.torch_name(v.dtype)}"
    if v.requires_grad:
        text += ", requires_grad=True"
    return text + ")"


def _merge_error(pred: Tensor, operands: Any, error: str) -> GradcliError:
    """What PyTorch's fake-tensor run of the cond node raises when the branches disagree."""
    ops = ", ".join(_fake(v) for v in T.tree_leaves(operands))
    ops = f"({ops},)" if len(T.tree_leaves(operands)) == 1 else f"({ops})"
    return GradcliError(
        "RuntimeError when making fake tensor call\n  Explanation: Dynamo failed to run FX node "
        f"with fake tensors: call_function cond(*({_fake(pred)}, GraphModule(), GraphModule(), "
        f"{ops}), **{{}}): got {error}",
        hint="make both branches return the same structure of tensors of one dtype and dim",
    ).mirror("TorchRuntimeError")


def _flat_spec(n: int) -> str:
    return "TreeSpec(tuple, None, [" + ",\n  ".join("*" * (n > 0) for _ in range(n)) + "])"


def _merged(pred: Tensor, operands: Any, true_out: Any, false_out: Any) -> None:
    """PyTorch's checks as it merges the two branches' outputs: one pytree structure (a bare
    tensor is compared by its count of leaves), then per leaf the same kind, dtype and dim."""
    t_leaves, t_spec = T.tree_flatten(true_out)
    f_leaves, f_spec = T.tree_flatten(false_out)
    bare = not isinstance(true_out, (tuple, list, dict)) or not isinstance(
        false_out, (tuple, list, dict)
    )
    if bare and len(t_leaves) != len(f_leaves):
        message = (
            "Unmatched output spec from torch.cond branches: true branch tree_spec "
            f"{_flat_spec(len(t_leaves))} vs false branch tree_spec {_flat_spec(len(f_leaves))}."
        )
        raise _merge_error(pred, operands, f"RuntimeError({message!r})")
    if not bare and t_spec.shown() != f_spec.shown():
        raise _traced(
            f"torch.cond: differing branch outputs\n  Higher Order Operator: {COND}",
            "return the same structure (tuple, list, dict keys) from both branches",
        )
    for a, b in zip(t_leaves, f_leaves):
        if isinstance(a, Tensor) != isinstance(b, Tensor):
            kinds = [
                "<class 'torch._subclasses.fake_tensor.FakeTensor'>"
                if isinstance(v, Tensor)
                else "<class 'int'>"
                for v in (a, b)
            ]
            message = f"expected both a and b to be FakeTensor, got a={kinds[0]}, b={kinds[1]}"
            raise _merge_error(pred, operands, f"AssertionError({message!r})")
        if not isinstance(a, Tensor):
            continue
        for attr, left, right in (
            ("dtype", dtypes.torch_name(a.dtype), dtypes.torch_name(b.dtype)),
            ("dim", a.ndim, b.ndim),
        ):
            if left != right:
                message = (
                    "When merging two branches' output in torch.cond,  expected same "
                    f"{attr} but got {left} and {right}."
                )
                raise _merge_error(pred, operands, f"RuntimeError({message!r})")


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
        pred = _call(WHILE, cond_fn, *unflat(values))
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
        before = _versions(list(values))
        out = _call(WHILE, body_fn, *unflat(values))
        flat = T.tree_leaves(out)
        if len(flat) != len(leaves):
            raise _traced(
                "torch.while_loop: body_fn's outputs do not match carried_inputs "
                f"({len(flat)} outputs for {len(leaves)} carried values)",
                "return one value per carried input, in the same structure",
            )
        _checked_outputs(WHILE, list(values), flat, before)
        values = tuple(flat)
    _checked_outputs(WHILE, leaves, [], versions)
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
        out = _call(SCAN, combine_fn, carry, x_i)
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
        _checked_outputs(SCAN, inputs, carry_leaves + T.tree_leaves(y), versions)
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
        out = _call(MAP, f, T.tree_unflatten([B.select(t, 0, i) for t in flat_xs], spec_xs), *args)
        _checked_outputs(MAP, inputs, T.tree_leaves(out), versions)
        outs.append(out)
    return _handed_back(_stacked(outs), "MapAutogradOp")


HOPS: dict[str, Callable[..., Any]] = {
    "cond": cond,
    "while_loop": while_loop,
    "scan": scan,
    "map": map_,
}
