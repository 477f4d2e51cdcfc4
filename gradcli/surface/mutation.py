"""`torch.autograd.graph.allow_mutation_on_saved_tensors()`: inside the block, a tensor a node
saved for backward may be changed in place; the node keeps the value it saved, copied just
before the change, and a backward pass inside the block differentiates with it (PyTorch clones
the saved tensor on its first change, through saved-tensor hooks and a dispatch mode).

As PyTorch's, a saved value is matched to a change by its address and version (`data_ptr`,
`_version`): a change through a view that starts elsewhere in the storage is not matched, nor
is one after the pass freed the node, and the node then reads the changed values (PyTorch's
saved-tensor hooks skip the version check: no error either). A backward
pass reaching a node recorded in a block that has ended is PyTorch's AssertionError; blocks do
not nest."""

from __future__ import annotations

import weakref

from ..base import limits
from ..base.errors import GradcliError
from ..core import hooks
from ..core.op import SAVED_COPIES, SAVED_COPIES_CHECK, Node
from ..core.tensor import Tensor, wrap

OUTSIDE = (
    "Trying to backward outside of the 'allow_mutation_on_saved_tensors' context"
    "in which the graph was originally recorded."
)

# The block running (its number; 0: none), and the numbers of the nodes' blocks.
_ACTIVE = [0]
_SERIAL = [0]
_BLOCK_OF: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# (address, version) of a saved value -> [(weak reference to the node, input number or -1)]
_BY_STORAGE: dict[tuple[int, int], list[tuple[weakref.ref, int]]] = {}


def _address(t: Tensor) -> int:
    return int(t.data.__array_interface__["data"][0])


def _node_made(node: Node) -> None:
    """A node recorded inside the block: the values its rule reads are registered by storage."""
    from ..core.autograd import _reads

    if not node.op.saves or node.op.kind == "custom":
        return
    _BLOCK_OF[node] = _ACTIVE[0]
    SAVED_COPIES[node] = {}
    reads_out, reads = _reads(node.op) if node.op.reads is None else node.op.reads(node.params)
    ref = weakref.ref(node)
    places = [(i, t) for i, t in enumerate(node.inputs) if reads is None or i in reads]
    if reads_out:
        places.append((-1, node.out))
    if len(_BY_STORAGE) > _PRUNE[0]:
        _prune()
    for i, t in places:
        if isinstance(t, Tensor):
            entries = _BY_STORAGE.setdefault((_address(t), t._version), [])
            limits.LIST_ITEMS.check(len(entries) + 1, "the values saved for backward")
            entries.append((ref, i))


_PRUNE = [4096]


def _prune() -> None:
    """Forget the values of nodes that are gone (a long loop inside the block)."""
    for key in list(_BY_STORAGE):
        live = [(ref, i) for ref, i in _BY_STORAGE[key] if ref() is not None]
        if live:
            _BY_STORAGE[key] = live
        else:
            del _BY_STORAGE[key]
    _PRUNE[0] = max(4096, 2 * len(_BY_STORAGE))


def _before_write(x: Tensor, address: int | None = None) -> None:
    """`x` (a tensor or a view, whose first element is at `address` when given) is about to
    be changed in place: the nodes that saved a value at that address and version keep a copy
    of it (once: a later change is of another version). A change through a view that starts
    elsewhere is not matched, as in PyTorch: the node then reads the changed values."""
    if not _BY_STORAGE:
        return
    key = (_address(x) if address is None else address, x._version)
    entries = _BY_STORAGE.pop(key, None)
    for ref, i in entries or ():
        node = ref()
        if node is None or node.freed:
            continue
        copies = SAVED_COPIES.get(node)
        if copies is None or i in copies:
            continue
        t = node.inputs[i] if i >= 0 else node.out
        kept = wrap(t.data.copy())
        kept.requires_grad, kept.node = t.requires_grad, t.node  # (its place in the graph)
        copies[i] = kept


def _check(node: Node) -> None:
    """A backward pass reaches a node recorded in a block: refused once the block has ended."""
    block = _BLOCK_OF.get(node)
    if block is not None and block != _ACTIVE[0]:
        raise GradcliError(OUTSIDE).mirror("AssertionError")


SAVED_COPIES_CHECK[0] = _check


def enter() -> None:
    if _ACTIVE[0]:
        raise GradcliError("allow_mutation_on_saved_tensors contexts cannot be nested").mirror(
            "RuntimeError"
        )
    _SERIAL[0] += 1
    _ACTIVE[0] = _SERIAL[0]
    hooks.node_made = _node_made
    hooks.before_write = _before_write


def exit() -> None:
    """The block ends: what it kept is dropped (its nodes refuse a backward pass now)."""
    _ACTIVE[0] = 0
    hooks.node_made = None
    hooks.before_write = None
    _BY_STORAGE.clear()
    for copies in list(SAVED_COPIES.values()):
        copies.clear()


def reset() -> None:
    """A new run: no block."""
    exit()
    SAVED_COPIES.clear()
    _BLOCK_OF.clear()
