"""What a node shows as `grad_fn._saved_<name>`: the saved variables of PyTorch's
derivatives.yaml, declared by each record (`Op.saved`) with these getters.

A record declares `saved=saves(self=SELF, result=RESULT)`: the names PyTorch's node of that
record exposes, and how to get each from what gradcli's node keeps (its inputs, its output, its
params). The tensors come in the order PyTorch's node saves them: the order in which
`torch.autograd.graph.saved_tensors_hooks` calls its pack and unpack hooks
(`surface.saved_hooks`). A record PyTorch shows under several node
names (matmul: MmBackward0 / MvBackward0 / DotBackward0) gives a function of the node instead.
The surface reads them (`surface.saved`): a tensor variable is refused once a backward freed
the node, and checked against changes in place, as PyTorch's SavedVariable.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .op import Node

# The `Tensor.name` of a Python number made an operand (`ops.arithmetic.wrapped_number`): the
# type PyTorch's wrapped number has (an int is shown as int64, a float as float64).
WRAPPED = {int: "<wrapped int>", float: "<wrapped float>", bool: "<wrapped bool>"}
# A constant operand converted from a real dtype to complex for an operation with a complex
# tensor (`z * 2`, `z * real_tensor`): PyTorch's operand stays real (its conj is itself).
REAL_AS_COMPLEX = "<real as complex>"


class Saved:
    """One saved variable: `get(node)` its value (None: PyTorch did not save it for this
    call, and shows None), `tensor` whether it is a saved tensor (freed by backward; a
    `_raw_saved_<name>` exists) or a plain value (sizes, dims, a number), `slot` the
    position of the tensor in the node (an input's index, -1 the output: for the version
    check), `refuse` a reason gradcli does not give it (yet)."""

    __slots__ = ("get", "tensor", "slot", "refuse", "owner")

    def __init__(
        self,
        get: Callable[[Node], Any],
        tensor: bool,
        slot: int | None = None,
        refuse: str | None = None,
        owner: Callable[[Node], Node] | None = None,
    ) -> None:
        self.get = get
        self.tensor = tensor
        self.slot = slot
        self.refuse = refuse
        # The node whose input `slot` is (None: this one): a variable PyTorch's one node
        # saves that gradcli's graph keeps in an earlier node (nn.Linear's product).
        self.owner = owner


def via(owner: Callable[[Node], Node], s: Saved) -> Saved:
    """`s` read from the node `owner(node)` instead (its version check and freeing too)."""
    return Saved(lambda n: s.get(owner(n)), s.tensor, s.slot, s.refuse, owner)


def saves(**variables: Saved) -> tuple[tuple[str, Saved], ...]:
    """The `Op.saved` of a record: name -> getter (a tuple of pairs: records are hashed)."""
    return tuple(variables.items())


def arg(i: int, when: Callable[[Node], bool] | None = None) -> Saved:
    """Input `i` (the same tensor object, as PyTorch's saved leaf or non-leaf input); `when`:
    saved only when this holds (mul saves one input only for the other's gradient)."""
    if when is None:
        return Saved(lambda n: n.inputs[i], True, i)
    return Saved(lambda n: n.inputs[i] if when(n) else None, True, i)


def needs(*others: int) -> Callable[[Node], bool]:
    """The condition "one of these inputs requires grad"."""
    return lambda n: any(n.inputs[j].requires_grad for j in others)


SELF = arg(0)
# The output: PyTorch gives a new tensor on its storage with this node as its grad_fn.
RESULT = Saved(lambda n: n.out, True, -1)


def param(name: str, convert: Callable[[Any], Any] = lambda v: v) -> Saved:
    """A param of the node, as PyTorch keeps it (a number, a flag)."""
    return Saved(lambda n: convert(n.params[name]), False)


def const(value: Any) -> Saved:
    """A value every node of the record saves alike (add's alpha 1)."""
    return Saved(lambda n: value, False)


def sizes(i: int) -> Saved:
    """`_saved_<input>_sym_sizes`: the input's shape, a tuple."""
    return Saved(lambda n: tuple(n.inputs[i].shape), False)


def numel(i: int) -> Saved:
    """`_saved_<input>_sym_numel`: the input's number of elements."""
    return Saved(lambda n: int(n.inputs[i].data.size), False)


def strides(i: int) -> Saved:
    """`_saved_<input>_sym_strides`: the input's strides in elements (NumPy's layout is
    PyTorch's for the tensors gradcli makes: a transpose is a strided view in both), kept
    only when that input requires grad (else the empty tuple, as PyTorch shows it)."""

    def get(n: Node) -> tuple[int, ...]:
        t = n.inputs[i]
        if not t.requires_grad:
            return ()
        a = t.data
        return tuple(s // a.itemsize for s in a.strides) if a.size > 1 else _contiguous(a.shape)

    return Saved(get, False)


def _contiguous(shape: tuple[int, ...]) -> tuple[int, ...]:
    out, step = [], 1
    for k in reversed(shape):
        out.append(step)
        step *= max(k, 1)
    return tuple(reversed(out))


def refused(reason: str) -> Saved:
    """A saved variable PyTorch exposes that gradcli does not give (yet), and why."""
    return Saved(lambda n: None, False, refuse=reason)


def wrapped(t: Any) -> bool:
    """Whether `t` is a Python number the program wrote as an operand (`x * 2`)."""
    return t.name in _WRAPPED_NAMES


_WRAPPED_NAMES = frozenset(WRAPPED.values())


def lookup(node: Node) -> dict[str, Saved] | None:
    """The saved variables of `node` (None: its record declares none). A mapping applies to
    the nodes shown under the record's own name (`3 / x` is a div shown as PyTorch's
    MulBackward0, whose saved values are another's); a function of the node decides."""
    saved = node.op.saved
    if saved is None:
        return None
    if callable(saved):
        saved = saved(node)
        if saved is None:
            return None
    elif node.name() != node.op.torch_name:
        return None
    return dict(saved)
