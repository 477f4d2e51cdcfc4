"""`grad_fn._saved_<name>` and `grad_fn._raw_saved_<name>`: the values a node saved for its
backward, as PyTorch's nodes expose them (the names each record declares, `Op.saved`).

A saved input is the tensor itself (`y.grad_fn._saved_self is x`), a saved result a new
tensor on the output's storage whose grad_fn is the node; a Python number the program wrote
(`x * 2`) is PyTorch's wrapped number (`tensor(2)`, int64). Once a backward without
retain_graph freed the node, a saved tensor is refused in PyTorch's words, and so is one
changed in place since.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from ..base.errors import GradcliError, NotSupported
from ..core import saved as V
from ..core.autograd import SECOND_BACKWARD, _modified
from ..core.op import COMPILED, Node
from ..core.tensor import MUTATIONS, Tensor, counter, wrap

_RAW = "_raw_saved_"
_SAVED = "_saved_"
_WRAPPED_DTYPES = {
    V.WRAPPED[int]: np.int64,
    V.WRAPPED[float]: np.float64,
    V.WRAPPED[bool]: np.bool_,
}


def is_saved_name(attr: str) -> bool:
    return attr.startswith(_SAVED) or attr.startswith(_RAW)


def saved_attribute(node: Node, attr: str) -> Any:
    """`node.<attr>` for a `_saved_...` / `_raw_saved_...` name."""
    raw = attr.startswith(_RAW)
    name = attr[len(_RAW) :] if raw else attr[len(_SAVED) :]
    shown = node.name()
    table = V.lookup(node)
    if table is None:
        raise NotSupported(
            f"gradcli does not expose {attr} for {shown} yet",
            found=f"`.{attr}`",
            hint="the saved values of mul, div, pow, exp, log, sin, cos, tanh, sigmoid, relu, "
            "sqrt, abs, threshold, mm / mv / dot, sum, mean, add, sub, split, unbind, slicing "
            "and selecting (x[1:3], x[2]), view, expand and permute are "
            "exposed",
        )
    s = table.get(name)
    if s is None or (raw and not s.tensor):
        raise GradcliError(f"'{shown}' object has no attribute '{attr}'").mirror("AttributeError")
    if s.refuse is not None:
        raise NotSupported(f"gradcli does not expose {attr} for {shown} yet: {s.refuse}")
    if not s.tensor:
        return s.get(node)
    if raw:
        return SavedTensor(node, name)
    hooked = next((p for p in node.packed or () if p[0] is s), None)
    if hooked is not None and _RAW_HOOKED.get(node) is not None and s in _RAW_HOOKED[node]:
        return _unpacked_by_hook(node, s, hooked)
    return unpack(node, s)


# The saved tensors whose hooks the program registered itself (`_raw_saved_<name>
# .register_hooks`): reading `_saved_<name>` calls their unpack_hook, as PyTorch's
# SavedVariable::unpack does (the saved_tensors_hooks context's are not read this way here).
_RAW_HOOKED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _unpacked_by_hook(node: Node, s: V.Saved, hooked: tuple) -> Tensor:
    """`_saved_<name>` of a tensor with hooks: unpack_hook's tensor, in the saved tensor's
    place in the graph (a new tensor: requires_grad and grad_fn of the saved one)."""
    from . import saved_hooks

    orig = unpack(node, s)  # refused once freed or changed, as reading it is
    got = saved_hooks.unpacked(hooked[1](hooked[2]))
    t = wrap(np.array(got.data, copy=True))
    if orig is not None:
        t.requires_grad, t.node = orig.requires_grad, orig.node
    return t


def unpack(node: Node, s: V.Saved) -> Tensor | None:
    """A saved tensor's value now: refused once freed or changed in place."""
    base = node if s.owner is None else s.owner(node)
    if node.freed or base.freed:
        raise GradcliError(
            SECOND_BACKWARD,
            hint="pass retain_graph=True to the backward() before reading saved tensors",
        ).mirror("RuntimeError")
    v = s.get(node)
    if v is None:
        if s.slot == -1:  # the node outlived its output (it refers to it weakly)
            data = _OUTPUTS.get(node)
            if data is None:  # (not reached: reading the grad_fn kept it)
                raise NotSupported(
                    f"gradcli does not keep the result {node.name()} saved once no variable "
                    "holds it",
                    hint="keep the output in a variable: y = x.exp(); y.grad_fn._saved_result",
                )
            return _result(node, wrap(data))
        return None
    # (nothing changed in place since the node was recorded: nothing to check)
    then = now = 0
    if base.mark != MUTATIONS[0]:
        then = base.versions[s.slot] if base.versions is not None else 0
        now = v._version
    if now != then:
        who = base.name() if s.slot == -1 else v.node.name() if v.node is not None else None
        raise _modified(v, who, now, then).mirror("RuntimeError")
    kind = _WRAPPED_DTYPES.get(v.name) if v.name is not None else None
    if kind is not None:
        return Tensor(np.asarray(v.data.item(), dtype=kind))
    if s.slot == -1:
        out = wrap(v.data)
        out._vc = counter(v)
        return _result(node, out)
    return v


def _result(node: Node, out: Tensor) -> Tensor:
    # PyTorch unpacks a saved output as a new tensor on its storage, with the node.
    out.requires_grad = True
    out.node = node
    return out


# The outputs of the nodes a program read as a grad_fn: a node refers to its output weakly,
# and `x.exp().grad_fn._saved_result` reads it once the tensor is gone.
_OUTPUTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def grad_fn(t: Tensor) -> Node:
    """`t.grad_fn` (of a tensor with a node): the node PyTorch shows, made to keep t's values
    when it saved its result."""
    node = t.node
    if COMPILED:
        compiled = COMPILED.get(node)
        if compiled is not None:
            return compiled[0]
    shown = node.shown()
    if shown is node and node.op.saved is not None:
        _OUTPUTS[node] = t.data
    return shown


class SavedTensor:
    """`grad_fn._raw_saved_<name>`: PyTorch's handle on one saved tensor."""

    PROGRAM_ATTRIBUTES = ("register_hooks",)
    __slots__ = ("node", "name")

    def __init__(self, node: Node, name: str) -> None:
        self.node = node
        self.name = name

    def register_hooks(self, *hooks: Any) -> None:
        """`pack(t)` now, on the saved tensor; `unpack(packed)` when backward reads it (the
        values it gives back are the ones differentiated: `surface.saved_hooks`)."""
        from . import saved_hooks

        if len(hooks) != 2 or not all(callable(h) for h in hooks):
            shown = ", ".join([repr(self), *map(repr, hooks)])
            raise GradcliError(
                "register_hooks(): incompatible function arguments. The following argument "
                "types are supported:\n    1. (self: torch._C._autograd.SavedTensor, arg0: "
                "collections.abc.Callable, arg1: collections.abc.Callable) -> None\n\n"
                f"Invoked with: {shown}",
                hint="pass two functions: pack_hook(tensor) and unpack_hook(packed)",
            ).mirror("TypeError")
        saved_hooks.flush()
        table = V.lookup(self.node) or {}
        s = table[self.name]
        if s.owner is not None:
            raise NotSupported(
                f"gradcli does not run hooks on {self.node.name()}'s saved {self.name}",
                hint="register them on a saved tensor of mul, pow, exp, sin, mm...",
            )
        packed = self.node.packed or []
        if any(p[0] is s for p in packed):
            raise GradcliError(
                "Calling register_hooks on a saved tensor whose hooks have already been set. "
                "Hint: only one pair of hooks is allowed at a time."
            ).mirror("RuntimeError")
        value = unpack(self.node, s)  # refused once freed, as reading it is
        if value is None:
            return
        pack, unpack_hook = hooks
        # PyTorch's SavedVariable::register_hooks packs the saved tensor's data outside the
        # graph (`data_.detach()`: no requires_grad, no grad_fn), under no_grad
        packed.append((s, unpack_hook, pack(value.detach())))
        self.node.packed = packed
        _RAW_HOOKED.setdefault(self.node, set()).add(s)

    def __repr__(self) -> str:
        return f"<torch._C._autograd.SavedTensor object at {id(self):#x}>"
