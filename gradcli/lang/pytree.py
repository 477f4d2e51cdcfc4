"""`torch.utils._pytree` as user code calls it next to torch.func (`tree_map(lambda t: t * 2,
params)`): `tree_flatten`, `tree_unflatten`, `tree_leaves`, `tree_structure`, `tree_map`
(with several trees), `tree_map_only`, `tree_all` / `tree_any`, `treespec_pprint` and the
`TreeSpec` they give, printed as PyTorch 2.13 prints it.

The nodes are PyTorch's built-in ones that gradcli's values have: lists, tuples, dicts,
OrderedDicts and `torch.Size`; everything else is a leaf, `None` included (as in PyTorch
2.13's `torch.utils._pytree`). PyTorch's other node kinds (named tuples, defaultdict, deque,
`torch.return_types`) are refused in plain words rather than taken as leaves."""

from __future__ import annotations

import collections
from typing import Any

from ..base.errors import GradcliError, NotSupported
from ..surface.func import Spec
from ..surface.printing import Size

_NODES = {list: None, tuple: None, Size: None, dict: "keys", collections.OrderedDict: "keys"}
_DICTS = (dict, collections.OrderedDict)


class TreeSpec(Spec):
    """PyTorch's TreeSpec: a node's type, its context (a dict's keys) and its children's specs;
    a leaf is `*`."""

    __slots__ = ()

    def program_typename(self) -> str:
        return "TreeSpec"

    def program_class(self) -> str:
        return "torch.utils._pytree.TreeSpec"

    def shown(self, indent: int = 0) -> str:
        if self.leaf:
            return "*"
        from .text import to_repr

        name = "namedtuple" if self.kind is _NamedTuple else self.kind.__name__  # type: ignore[union-attr]
        head = f"TreeSpec({name}, {to_repr(self.context)}, ["
        if not self.children:
            return head + "])"
        indent += 2
        parts = [self.children[0].shown(indent)]
        parts += ["\n" + " " * indent + c.shown(indent) for c in self.children[1:]]
        return head + ",".join(parts) + "])"

    def nodes(self) -> int:
        return 1 + sum(c.nodes() for c in self.children)

    def _child(self, index: Any) -> TreeSpec:
        if isinstance(index, bool) or not isinstance(index, int):
            from .values import typename

            raise GradcliError(
                f"list indices must be integers or slices, not {typename(index)}"
            ).mirror("TypeError")
        if not -len(self.children) <= index < len(self.children):
            raise GradcliError("list index out of range").mirror("IndexError")
        return self.children[index]

    def program_attribute(self, name: str) -> Any:
        from .builtins import type_of
        from .values import Builtin

        if name == "num_leaves":
            return self.count()
        if name == "num_nodes":
            return self.nodes()
        if name == "num_children":
            return len(self.children)
        if name == "type" and self.kind is _NamedTuple:
            raise NotSupported("`TreeSpec.type` of a named tuple's spec is not supported")
        if name == "type":
            return None if self.leaf else type_of(self.kind())  # type: ignore[misc]
        if name == "context":
            if self.kind is _NamedTuple or self.context is None:
                return self.context
            return list(self.context)
        if name == "is_leaf":
            return Builtin("TreeSpec.is_leaf", lambda: self.leaf)
        if name == "children":
            return Builtin("TreeSpec.children", lambda: list(self.children))
        if name == "child":
            return Builtin("TreeSpec.child", self._child)
        if name == "unflatten":
            return Builtin("TreeSpec.unflatten", lambda leaves: tree_unflatten(leaves, self))
        if name == "flatten_up_to":
            return Builtin("TreeSpec.flatten_up_to", lambda tree: _up_to(self, tree))
        raise NotSupported(
            f"`TreeSpec.{name}` is not supported by gradcli",
            hint="a TreeSpec has num_leaves, num_nodes, num_children, type, context, "
            "is_leaf(), children(), child(i), unflatten(leaves)",
        )


LEAF = TreeSpec(None)


class _Star:
    """treespec_pprint's stand-in for a leaf."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "*"


def _call(fn: Any, *args: Any) -> Any:
    """The program's function called through the running interpreter (its limits)."""
    from .values import current

    return current().call(fn, list(args), {}, None)


def _truth(v: Any) -> bool:
    from .values import truth

    return truth(v)


def _flatten(tree: Any, is_leaf: Any, out: list) -> TreeSpec:
    if is_leaf is not None and _truth(_call(is_leaf, tree)):
        out.append(tree)
        return LEAF
    kind = type(tree)
    how = _NODES.get(kind, False)
    if how is False and _is_record(tree):  # a program's named tuple
        return TreeSpec(_NamedTuple, tree.cls, tuple(_flatten(x, is_leaf, out) for x in tree))
    if how is False:
        if isinstance(tree, (list, tuple, dict, collections.deque)):
            from .values import typename

            raise NotSupported(
                f"a pytree node of type {typename(tree)} is not supported",
                hint="use lists, tuples and dicts in the tree (list(x), dict(x))",
            )
        out.append(tree)
        return LEAF
    if how == "keys":
        keys = list(tree.keys())
        kids = tuple(_flatten(tree[k], is_leaf, out) for k in keys)
        return TreeSpec(kind, keys, kids)
    return TreeSpec(kind, None, tuple(_flatten(x, is_leaf, out) for x in tree))


class _NamedTuple:
    """PyTorch's node kind of every named tuple (its class is the spec's context)."""


def _is_record(v: Any) -> bool:
    from .pycollections import Record

    return isinstance(v, Record)


def _checked(tree: Any) -> None:
    from .values import check_structure

    check_structure(tree, "pytree")


def tree_flatten(tree: Any, is_leaf: Any = None) -> tuple[list, TreeSpec]:
    _checked(tree)
    out: list = []
    spec = _flatten(tree, is_leaf, out)
    return out, spec


def tree_leaves(tree: Any, is_leaf: Any = None) -> list:
    return tree_flatten(tree, is_leaf)[0]


def tree_structure(tree: Any, is_leaf: Any = None) -> TreeSpec:
    return tree_flatten(tree, is_leaf)[1]


def _build(spec: TreeSpec, it: Any) -> Any:
    if spec.leaf:
        return next(it)
    kids = [_build(c, it) for c in spec.children]
    kind = spec.kind
    if kind in _DICTS:
        return kind(zip(spec.context, kids))  # type: ignore[misc]
    if kind is list:
        return kids
    if kind is Size:
        return Size(tuple(kids))
    if kind is _NamedTuple:
        from .pycollections import Record

        return Record(spec.context, tuple(kids))
    return tuple(kids)


def _spec(treespec: Any) -> TreeSpec:
    if not isinstance(treespec, TreeSpec):
        from .builtins import type_of

        raise GradcliError(
            "Expected `treespec` to be an instance of PyTreeSpec but got item of type "
            f"{type_of(treespec)!r}."
        ).mirror("TypeError")
    return treespec


def tree_unflatten(leaves: Any, treespec: Any) -> Any:
    spec = _spec(treespec)
    if not isinstance(leaves, (list, tuple)):
        raise NotSupported(
            "tree_unflatten() of leaves that are not a list or tuple is not supported",
            hint="pass list(leaves)",
        )
    n = spec.count()
    if len(leaves) != n:
        raise GradcliError(
            f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} but the spec "
            f"refers to a pytree that holds {n} items ({spec.shown()})."
        ).mirror("ValueError")
    return _build(spec, iter(leaves))


def _type_text(kind: Any) -> str:
    from .builtins import type_of

    return repr(type_of(kind()))


def _up_to(spec: TreeSpec, tree: Any) -> list:
    _checked(tree)
    out: list = []

    def walk(s: TreeSpec, node: Any) -> None:
        if s.leaf:
            out.append(node)
            return
        kind = type(node)
        if s.kind is _NamedTuple:
            if not (_is_record(node) and node.cls is s.context):
                raise NotSupported(
                    "tree_map() over named tuples of different classes is not supported",
                    hint="give every tree the same structure",
                )
            kind = _NamedTuple
        both_dicts = s.kind in _DICTS and kind in _DICTS
        if not both_dicts and kind is not s.kind:
            shown = repr(_leaf_type(node))
            raise GradcliError(
                f"Node type mismatch; expected {_type_text(s.kind)}, but got {shown}."
            ).mirror("ValueError")
        if len(node) != len(s.children):
            raise GradcliError(
                f"Node arity mismatch; expected {len(s.children)}, but got {len(node)}."
            ).mirror("ValueError")
        if both_dicts:
            if set(node) != set(s.context):
                from .text import to_repr

                missing = set(s.context) - set(node)
                extra = set(node) - set(s.context)
                msg = ""
                if missing:
                    msg += f"; missing key(s): {to_repr(missing)}"
                if extra:
                    msg += f"; extra key(s): {to_repr(extra)}"
                raise GradcliError(f"Node keys mismatch{msg}.").mirror("ValueError")
            for k, c in zip(s.context, s.children):
                walk(c, node[k])
            return
        for x, c in zip(node, s.children):
            walk(c, x)

    walk(spec, tree)
    return out


def _leaf_type(v: Any) -> Any:
    from .builtins import type_of

    return type_of(v)


def tree_map(func: Any, tree: Any, *rests: Any, is_leaf: Any = None) -> Any:
    leaves, spec = tree_flatten(tree, is_leaf)
    flat = [leaves] + [_up_to(spec, r) for r in rests]
    return _build(spec, iter([_call(func, *args) for args in zip(*flat)]))


def _only(kind: Any) -> Any:
    """tree_map_only's test of a leaf: a class (or tuple of classes) of the program's, or a
    predicate."""
    from .builtins import _isinstance

    if isinstance(kind, tuple) or _is_class(kind):
        return lambda x: _isinstance(x, kind)
    return lambda x: _truth(_call(kind, x))


def _is_class(v: Any) -> bool:
    from .values import PyType

    return isinstance(v, PyType) or hasattr(v, "made_class") or hasattr(v, "instance")


def tree_map_only(kind: Any, func: Any, tree: Any, is_leaf: Any = None) -> Any:
    test = _only(kind)
    return tree_map(lambda x: _call(func, x) if test(x) else x, tree, is_leaf=is_leaf)


def tree_all(pred: Any, tree: Any, is_leaf: Any = None) -> bool:
    return all(_truth(_call(pred, x)) for x in tree_leaves(tree, is_leaf))


def tree_any(pred: Any, tree: Any, is_leaf: Any = None) -> bool:
    return any(_truth(_call(pred, x)) for x in tree_leaves(tree, is_leaf))


def treespec_pprint(treespec: Any) -> str:
    from .text import to_repr

    spec = _spec(treespec)
    return to_repr(_build(spec, iter([_Star()] * spec.count())))


def members() -> dict[str, Any]:
    from .values import Builtin, PyType

    fns = {
        n: Builtin(f"torch.utils._pytree.{n}", f)
        for n, f in (
            ("tree_flatten", tree_flatten),
            ("tree_unflatten", tree_unflatten),
            ("tree_leaves", tree_leaves),
            ("tree_structure", tree_structure),
            ("tree_map", tree_map),
            ("tree_map_only", tree_map_only),
            ("tree_all", tree_all),
            ("tree_any", tree_any),
            ("treespec_pprint", treespec_pprint),
        )
    }
    fns["TreeSpec"] = PyType("TreeSpec", (TreeSpec,), None, shown="torch.utils._pytree.TreeSpec")
    return fns
