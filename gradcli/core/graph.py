"""The recorded graph as a program: the creation-ordered equations an output depends on.

`ancestors` is the one walk over it (iterative, never recursive): backward runs its result
in reverse, forward mode, the numeric re-evaluation, sympy and the catalog's checks in order.
The helpers below select the part of it between some inputs and an output.
"""

from __future__ import annotations

import bisect
import contextlib
from collections.abc import Iterable, Iterator, Sequence

from ..base.errors import NotSupported
from .op import Node, peek_seq, producer
from .tensor import DETACHED, RECORDED_CHANGES, Tensor, check_detached


def ancestors(roots: Iterable[Tensor], stop: Iterable[int] = (), since: int = 0) -> list[Node]:
    """The nodes the `roots` depend on (through tensors that require grad), in creation
    order. Tensors whose id is in `stop` are treated as inputs: the walk does not go past
    them; nor does it go past nodes created before sequence number `since` (e.g. to collect
    only what a backward pass with create_graph=True recorded: `since=first_seq()`)."""
    stop_ids = set(stop)
    nodes: dict[int, Node] = {}
    stack = [
        r.node
        for r in roots
        if r is not None and r.node is not None and id(r) not in stop_ids and r.node.seq >= since
    ]
    push = stack.append
    while stack:
        n = stack.pop()
        seq = n.seq
        if seq in nodes:
            continue
        nodes[seq] = n
        for t in n.inputs:
            p = t.node
            if p is None or not t.requires_grad:
                if DETACHED:
                    check_detached(t, seq)
                continue
            ps = p.seq
            if ps >= seq:  # `t` was changed in place after `n` used it: its node then
                p = producer(t, seq)
                if p is None:
                    continue
                ps = p.seq
            if ps not in nodes and ps >= since and (not stop_ids or id(t) not in stop_ids):
                push(p)
    found = [nodes[s] for s in sorted(nodes)]
    if RECORDED_CHANGES[0]:
        stale_views(found)
    return found


def stale_views(nodes: Iterable[Node]) -> None:
    """Refuse a view used after the tensor it views was changed in place by another name.

    PyTorch re-derives such a view's grad_fn from the changed tensor (AsStridedBackward0 or
    a replay of the view over the tensor's new node), so gradients flow through the change;
    gradcli's view still points at the tensor's old node and would give the gradient without
    the change: it says so instead. (A view changed through itself is recorded on the tensor
    and re-made: not stale.)"""
    for n in nodes:
        for t in n.inputs:
            if t._base is None or not t.requires_grad:
                continue
            p = producer(t, n.seq)
            if p is None:
                continue
            sources = {id(t._base): t._base}
            if p.inputs:
                sources.setdefault(id(p.inputs[0]), p.inputs[0])
            for src in sources.values():
                if src is not t and _changed_between(src, p.seq, n.seq):
                    raise NotSupported(
                        "gradcli does not support differentiating through a view of a tensor "
                        "that was changed in place after the view was taken (PyTorch "
                        "re-derives the view from the changed tensor)",
                        hint="take the view again after the change (v = h.view(...) after "
                        "h.mul_(...)), or change a copy: h = h * 2",
                    )


def _changed_between(t: Tensor, after: int, before: int) -> bool:
    """Whether `t` was changed in place (recorded) by a node made between the two sequence
    numbers."""
    q = t.node
    if q is None or q.seq <= after or q.history is None:
        return False
    seqs = q.history[1]  # the versions' nodes in order; from the second on, changes in place
    i = max(bisect.bisect_right(seqs, after), 1)
    return i < len(seqs) and seqs[i] < before


def next_seq() -> int:
    """The sequence number the next recorded node will get (for `ancestors(since=...)`)."""
    return peek_seq()


def producers(nodes: Iterable[Node]) -> dict[int, Node]:
    """`id(tensor) -> the node that computed it`, for the nodes of a walk: how walkers step
    from a tensor to its equation without following `tensor.node` themselves."""
    return {id(n.out): n for n in nodes}


def leaves(nodes: Sequence[Node], root: Tensor | None = None) -> list[Tensor]:
    """The tensors the nodes use that no node of them computes (leaves, constants, and the
    walk's stop tensors), in order of first use; `root` itself if it has no node."""
    made = {id(n.out) for n in nodes}
    known = set(nodes)
    seen: set[int] = set()
    out: list[Tensor] = []
    if root is not None and root.node is None:
        seen.add(id(root))
        out.append(root)
    for n in nodes:
        for t in n.inputs:
            k = id(t)
            if k in seen:
                continue
            p = t.node
            if p is not None and p.seq >= n.seq:
                p = producer(t, n.seq)
            if k in made or (p is not None and p in known):
                continue  # computed by one of the nodes (an old version of it, perhaps)
            seen.add(k)
            out.append(t)
    return out


def on_path(nodes: Sequence[Node], targets: Sequence[Tensor]) -> tuple[set[int], list[Node]]:
    """Ids of the tensors that depend on a target (the targets included), and the nodes that
    compute them from a target, in creation order."""
    on = {id(t) for t in targets}
    path: list[Node] = []
    on_nodes: set[Node] = set()
    for n in nodes:
        hit = False
        for t in n.inputs:
            if not t.requires_grad:
                continue
            if id(t) in on:
                hit = True
                continue
            p = t.node
            if p is not None and p.seq >= n.seq:
                p = producer(t, n.seq)
            if p is not None and p in on_nodes:
                # An earlier version of a tensor changed in place (its own object): on the
                # path too, so that `pruned` leaves it alone.
                on.add(id(t))
                hit = True
        if hit:
            on.add(id(n.out))
            path.append(n)
            on_nodes.add(n)
    return on, path


def reached(out: Tensor, nodes: Sequence[Node] | None = None) -> set[int]:
    """Ids of the tensors `out` depends on (itself included): any other input is unused."""
    nodes = ancestors([out]) if nodes is None else nodes
    return {id(out)} | {id(t) for n in nodes for t in n.inputs if t.requires_grad}


def has_custom(nodes: Sequence[Node]) -> bool:
    """Whether a user-defined gradient is among the nodes."""
    return any(n.op.kind == "custom" for n in nodes)


@contextlib.contextmanager
def pruned(
    out: Tensor, targets: Sequence[Tensor], nodes: Sequence[Node] | None = None
) -> Iterator[None]:
    """For the duration, `requires_grad` is off on every tensor of `out`'s graph that is not on
    a path from a target to `out`: reverse passes then visit only the nodes a Jacobian needs
    (and a VJP rule may skip gradients nobody asked for)."""
    nodes = ancestors([out]) if nodes is None else nodes
    on, _ = on_path(nodes, targets)
    off: dict[int, Tensor] = {}
    for n in nodes:
        for t in n.inputs:
            if t.requires_grad and id(t) not in on:
                off[id(t)] = t
    for t in off.values():
        t.requires_grad = False
    try:
        yield
    finally:
        for t in off.values():
            t.requires_grad = True


@contextlib.contextmanager
def all_off(node: Node) -> Iterator[None]:
    """For the duration, nothing in `node`'s graph (its output included) requires grad."""
    tensors = {id(t): t for n in ancestors([node.out]) for t in n.inputs if t.requires_grad}
    tensors.update({id(t): t for t in node.inputs if t.requires_grad})
    tensors[id(node.out)] = node.out
    flags = {k: t.requires_grad for k, t in tensors.items()}
    for t in tensors.values():
        t.requires_grad = False
    try:
        yield
    finally:
        for k, t in tensors.items():
            t.requires_grad = flags[k]
