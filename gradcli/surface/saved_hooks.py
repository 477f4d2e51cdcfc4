"""`torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook)`: while it is in force,
every node recorded calls `pack_hook(t)` for each tensor PyTorch's node of that kind saves for
its backward (the variables its records declare, `Op.saved`, in the order PyTorch saves
them), and a backward pass reaching the node calls `unpack_hook(packed)` for each, in the same
order, and differentiates with the tensors unpack returns (their values; the graph stays the
saved tensors' own, as PyTorch's SavedVariable).

gradcli packs when the statement that recorded the nodes ends (or before a print or a
backward pass inside it), not inside the operation: a node gradcli names as PyTorch does only
once the composition it belongs to is done (nn.Linear's product, shown as AddmmBackward0) is
then known by its final name. A node whose saved tensors gradcli does not know (its record
declares none, and PyTorch's node of that name saves some) is refused in plain words rather
than packed a wrong number of times. Python numbers a program wrote as operands (`x * 2`) are
PyTorch's wrapped numbers, which it never packs.

Also `save_on_cpu` (its tensors are on the CPU already: a block where no hooks apply) and
`disable_saved_tensors_hooks(message)` (entering saved_tensors_hooks inside it raises the
message).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import GradcliError, NotSupported
from ..core import hooks
from ..core import saved as V
from ..core.op import Node
from ..core.tensor import Tensor, typename, wrap

# PyTorch's nodes that save no tensor (only sizes, dims, numbers, or nothing): no pack call.
NOTHING = frozenset(
    {
        "AddBackward0",
        "AddBackward1",
        "SubBackward0",
        "SubBackward1",
        "RsubBackward1",
        "NegBackward0",
        "SumBackward0",
        "SumBackward1",
        "MeanBackward0",
        "MeanBackward1",
        "CloneBackward0",
        "ViewBackward0",
        "ReshapeAliasBackward0",
        "TBackward0",
        "TransposeBackward0",
        "PermuteBackward0",
        "ExpandBackward0",
        "UnsqueezeBackward0",
        "SqueezeBackward0",
        "SqueezeBackward1",
        "SqueezeBackward2",
        "SqueezeBackward4",
        "SelectBackward0",
        "SliceBackward0",
        "CatBackward0",
        "StackBackward0",
        "AliasBackward0",
        "ToCopyBackward0",
        "DetachBackward0",
    }
)

# The records gradcli shows under those names when they are PyTorch's nodes (a composition
# gradcli names ViewBackward0 whose last record is another is not one of them).
_NO_SAVE_RECORDS = frozenset(
    {"add", "sub", "neg", "rsub_scalar", "sum", "mean", "reshape", "permute", "expand", "index"}
    | {"cat", "stack", "astype"}
)

# The pairs in force, innermost last (None: a block where no hooks apply, save_on_cpu), and
# the messages of the disable_saved_tensors_hooks blocks entered.
_STACK: list[tuple[Any, Any] | None] = []
_DISABLED: list[str] = []
_FLUSHING = [False]


def unpacked(got: Any) -> Tensor:
    """What an unpack hook gave back, which must be a tensor (PyTorch's TypeError)."""
    if not isinstance(got, Tensor):
        raise GradcliError(
            "Output of saved tensor unpack_hook expected to be a Tensor but got result of "
            f"type {'NoneType' if got is None else typename(got)}",
            hint="unpack_hook must give back a tensor (what pack_hook was given)",
        ).mirror("TypeError")
    return got


def _check_callable(pack: Any, unpack: Any) -> None:
    if not callable(pack) or not callable(unpack):
        raise GradcliError(
            "_push_saved_tensors_default_hooks(): incompatible function arguments. The "
            "following argument types are supported:\n"
            "    1. (arg0: collections.abc.Callable, arg1: collections.abc.Callable) -> None\n\n"
            f"Invoked with: {pack!r}, {unpack!r}",
            hint="pass two functions: pack_hook(tensor) -> anything, unpack_hook(packed) -> tensor",
        ).mirror("TypeError")


def push(pair: tuple[Any, Any] | None) -> None:
    """Enter a saved_tensors_hooks block (`pair` the hooks; None: save_on_cpu)."""
    if pair is not None:
        _check_callable(*pair)
    if _DISABLED:
        # Any hooks block, save_on_cpu too, inside disable_saved_tensors_hooks(message):
        # PyTorch's RuntimeError is the program's own message (the innermost one).
        raise GradcliError(_DISABLED[-1]).pytorch()
    _STACK.append(pair)
    hooks.saved_hooks = pair


def pop() -> None:
    """Leave the innermost block (the nodes recorded inside it are packed first)."""
    try:
        flush()
    finally:
        _STACK.pop()
        hooks.saved_hooks = _STACK[-1] if _STACK else None


def reset() -> None:
    """No hooks in force (the end of a run)."""
    _STACK.clear()
    _DISABLED.clear()
    hooks.saved_pending.clear()
    hooks.saved_hooks = None
    _FLUSHING[0] = False


def disable(message: str) -> None:
    if _STACK:
        # Disabling while a hooks block (save_on_cpu too) is in force raises the message.
        raise GradcliError(message).pytorch()
    _DISABLED.append(message)


def enable() -> None:
    _DISABLED.pop()


def _refuse(node: Node) -> NotSupported:
    name = node.name()
    return NotSupported(
        f"gradcli does not know which tensors {name} saves for its backward, so it cannot call "
        "saved_tensors_hooks' pack_hook and unpack_hook for it as PyTorch does",
        found=f"{name} recorded inside saved_tensors_hooks",
        hint="the hooks run for mul, div, pow, exp, log, sin, cos, tan, tanh, sigmoid, relu, "
        "sqrt, abs, threshold, matmul (mm, mv, dot), nn.Linear, and for the nodes that save "
        "no tensor (add, sub, sum, mean, views, indexing with numbers and slices, cat, stack)",
    )


def flush() -> None:
    """Call pack_hook for the tensors of the nodes recorded under hooks so far, in the order
    they were recorded."""
    if _FLUSHING[0] or not hooks.saved_pending:
        return
    pending = list(hooks.saved_pending)
    hooks.saved_pending.clear()
    tables = [(node, out, pair, V.lookup(node)) for node, out, pair in pending]
    # Nodes PyTorch does not have: the product of nn.Linear, whose saved tensors are the
    # AddmmBackward0 node's (`core.saved.via`).
    hidden = set()
    for node, _, _, table in tables:
        for s in (table or {}).values():
            if s.owner is not None:
                hidden.add(s.owner(node))
    before = hooks.saved_hooks
    _FLUSHING[0] = True
    hooks.saved_hooks = None  # what pack_hook computes is not hooked itself
    try:
        for node, _, (pack, unpack), table in tables:
            if node in hidden:
                continue
            if table is None:
                if node.name() in NOTHING and node.op.name in _NO_SAVE_RECORDS:
                    continue
                raise _refuse(node)
            packed = []
            for s in table.values():
                if not s.tensor or s.refuse is not None:
                    continue
                t = s.get(node)
                if t is None or V.wrapped(t):
                    continue
                packed.append((s, unpack, pack(t)))
            if packed:
                node.packed = packed
    finally:
        _FLUSHING[0] = False
        hooks.saved_hooks = before


def unpack_node(node: Node) -> tuple[list, Any]:
    """Call unpack_hook for each tensor the node packed: its rule's inputs and output, with
    the values unpack gave back."""
    inputs = list(node.inputs)
    out = node.out
    for s, unpack, packed in node.packed or ():
        got = unpacked(unpack(packed))
        orig = s.get(node)
        if got is orig:
            continue
        if orig is not None and (got.shape != orig.shape or got.dtype != orig.dtype):
            raise GradcliError(
                f"unpack_hook gave {node.name()} a tensor of shape {list(got.shape)} "
                f"({got.dtype.name}) for one saved with shape {list(orig.shape)} "
                f"({orig.dtype.name})",
                hint="give back a tensor of the saved one's shape and dtype",
            ).mirror("RuntimeError")
        if orig is not None and np.array_equal(got.data, orig.data, equal_nan=True):
            continue
        if s.owner is not None or s.slot is None:
            raise NotSupported(
                f"gradcli does not differentiate {node.name()} with other values than it saved",
                hint="give back from unpack_hook the values pack_hook was given",
            )
        # Its values, with the saved tensor's place in the graph (as PyTorch's SavedVariable).
        t = wrap(np.array(got.data, copy=True))
        if orig is not None:
            t.requires_grad = orig.requires_grad
            t.node = orig.node
        if s.slot == -1:
            t.requires_grad, t.node = True, node
            out = t
        else:
            inputs[s.slot] = t
    return inputs, out


# What the kernel calls (`core.hooks`): set when this module is first used.
hooks.saved_flush = flush
hooks.saved_unpack = unpack_node
