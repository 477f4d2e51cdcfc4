"""Which names a function, lambda or comprehension binds (its locals), found before it runs,
so that every name a program reads is resolved once, when it is compiled, as Python resolves
it: a local of the running function, a variable of an enclosing function (a closure), a
module-level name, or a builtin / torch name. Class bodies are not scopes for their methods,
as in Python: a class body runs in a frame of its own, which becomes the class's table."""

from __future__ import annotations

import ast
from typing import Literal

Kind = Literal["module", "function", "comprehension", "class"]

# (how, frames up): how a name is read where it is used.
LOCAL = "local"
FREE = "free"
GLOBAL = "global"
BUILTIN = "builtin"


class Scope:
    def __init__(
        self,
        kind: Kind,
        parent: Scope | None,
        names: set[str],
        globals_: frozenset[str] = frozenset(),
        nonlocals: frozenset[str] = frozenset(),
    ):
        self.kind = kind
        self.parent = parent
        self.names = names
        # A function's `global x` / `nonlocal x` names: not its locals; read and written in
        # the module's variables / the enclosing function's frame, as in Python.
        self.globals_ = globals_
        self.nonlocals = nonlocals

    def module(self) -> Scope:
        s = self
        while s.parent is not None:
            s = s.parent
        return s

    def resolve(self, name: str) -> tuple[str, int]:
        """How `name` read in this scope is found: (LOCAL, 0), (FREE, frames up), (GLOBAL, 0)
        for a module-level name, or (BUILTIN, 0)."""
        if self.kind == "module":
            return (GLOBAL, 0) if name in self.names else (BUILTIN, 0)
        if self.kind == "class":
            # A class body runs in a frame of its own (its names become the class's), one
            # frame up from the frame of the scope around it; the names of a class around it
            # are not visible (as in Python).
            if name in self.names:
                return (LOCAL, 0)
            up = 0
            s: Scope = self
            while s.kind == "class":
                up += 1
                s = s.parent  # type: ignore[assignment]
            how, n = s.resolve(name)
            if how == LOCAL:
                return (FREE, up)
            if how == FREE:
                return (FREE, n + up)
            return (how, n)
        if name in self.globals_:
            return (GLOBAL, 0)
        if name in self.names:
            return (LOCAL, 0)
        up = 0
        s = self.parent
        while s is not None:
            if s.kind == "module":
                return (GLOBAL, 0) if name in s.names else (BUILTIN, 0)
            if s.kind != "class":
                up += 1
                if name in s.names:
                    return (FREE, up)
                if name in s.globals_:  # `global x` in a function around: the module's x
                    return (GLOBAL, 0)
            s = s.parent
        return (BUILTIN, 0)

    def is_local(self, name: str) -> bool:
        return self.kind != "module" and name in self.names


def bound_names(body: list[ast.AST]) -> set[str]:
    """The names a block of statements binds in its own scope (not inside nested functions,
    lambdas or class bodies): the statements' targets, and those of `:=` in their
    expressions (comprehensions included, whose `:=` binds in the scope around them, as in
    Python). Iterative: blocks may be long."""
    names = walrus_names(body)
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is ast.Assign:
            for t in node.targets:  # type: ignore[attr-defined]
                _target_names(t, names)
        elif kind is ast.Delete:  # `del x` makes x a name of this scope, as in Python
            for t in node.targets:  # type: ignore[attr-defined]
                _target_names(t, names)
        elif kind in (ast.AugAssign, ast.AnnAssign):
            _target_names(node.target, names)  # type: ignore[attr-defined]
        elif kind in (ast.For, ast.AsyncFor):
            _target_names(node.target, names)  # type: ignore[attr-defined]
            stack.extend(node.body)  # type: ignore[attr-defined]
            stack.extend(node.orelse)  # type: ignore[attr-defined]
        elif kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            names.add(node.name)  # type: ignore[attr-defined]
        elif kind in (ast.Import, ast.ImportFrom):
            for alias in node.names:  # type: ignore[attr-defined]
                if alias.name != "*":
                    names.add(alias.asname or alias.name.split(".")[0])
                else:  # `from torch.autograd import *` binds the module's __all__
                    from ..surface import public

                    names.update(public.star_names(getattr(node, "module", None) or "") or ())
        elif kind in (ast.If, ast.While):
            stack.extend(node.body)  # type: ignore[attr-defined]
            stack.extend(node.orelse)  # type: ignore[attr-defined]
        elif kind is ast.Match:
            for case in node.cases:  # type: ignore[attr-defined]
                names.update(
                    n.name
                    for n in ast.walk(case.pattern)
                    if isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name
                )
                names.update(
                    n.rest
                    for n in ast.walk(case.pattern)
                    if isinstance(n, ast.MatchMapping) and n.rest
                )
                stack.extend(case.body)
        elif kind in (ast.With, ast.AsyncWith):
            for item in node.items:  # type: ignore[attr-defined]
                if item.optional_vars is not None:
                    _target_names(item.optional_vars, names)
            stack.extend(node.body)  # type: ignore[attr-defined]
        elif kind in (ast.Try, ast.TryStar):
            stack.extend(node.body)  # type: ignore[attr-defined]
            stack.extend(node.orelse)  # type: ignore[attr-defined]
            stack.extend(node.finalbody)  # type: ignore[attr-defined]
            for h in node.handlers:  # type: ignore[attr-defined]
                if h.name:
                    names.add(h.name)
                stack.extend(h.body)
    return names


_OWN_SCOPE = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def declarations(body: list[ast.stmt]) -> tuple[dict[str, ast.AST], dict[str, ast.AST]]:
    """The names a block's own `global` and `nonlocal` statements declare (not those of the
    functions and classes nested in it), each with its first declaring statement."""
    globals_: dict[str, ast.AST] = {}
    nonlocals: dict[str, ast.AST] = {}
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Global):
            for n in node.names:
                globals_.setdefault(n, node)
        elif isinstance(node, ast.Nonlocal):
            for n in node.names:
                nonlocals.setdefault(n, node)
        elif isinstance(node, ast.stmt) and not isinstance(node, _OWN_SCOPE):
            # (declarations are statements: only statement bodies can hold them)
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                block = getattr(node, field, None)
                if block:
                    stack.extend(reversed(block))
        elif isinstance(node, (ast.ExceptHandler, ast.match_case)):
            stack.extend(reversed(node.body))
    return globals_, nonlocals


def declared_global_anywhere(tree: ast.AST) -> set[str]:
    """Every name some `global` statement of the program declares: a function's assignment
    to it binds a module-level name."""
    return {n for node in ast.walk(tree) if isinstance(node, ast.Global) for n in node.names}


def walrus_names(nodes: list[ast.AST]) -> set[str]:
    """The names `:=` binds in `nodes` (statements or an expression), not inside the nested
    functions, lambdas or classes there (a def's decorators and defaults are outside it)."""
    names: set[str] = set()
    stack: list[ast.AST] = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.NamedExpr):
            if isinstance(node.target, ast.Name):
                names.add(node.target.id)
            stack.append(node.value)
        elif isinstance(node, _OWN_SCOPE):
            if not isinstance(node, ast.Lambda):
                stack.extend(node.decorator_list)
            if not isinstance(node, ast.ClassDef):
                stack.extend(node.args.defaults)
                stack.extend(d for d in node.args.kw_defaults if d is not None)
        else:
            stack.extend(ast.iter_child_nodes(node))
    return names


def _target_names(target: ast.AST, names: set[str]) -> None:
    stack = [target]
    while stack:
        t = stack.pop()
        if isinstance(t, ast.Name):
            names.add(t.id)
        elif isinstance(t, (ast.Tuple, ast.List)):
            stack.extend(t.elts)
        elif isinstance(t, ast.Starred):
            stack.append(t.value)


def parameter_names(args: ast.arguments) -> list[str]:
    names = [a.arg for a in args.posonlyargs + args.args]
    if args.vararg:
        names.append(args.vararg.arg)
    names.extend(a.arg for a in args.kwonlyargs)
    if args.kwarg:
        names.append(args.kwarg.arg)
    return names


def comprehension_names(generators: list[ast.comprehension]) -> set[str]:
    names: set[str] = set()
    for g in generators:
        for n in ast.walk(g.target):
            if isinstance(n, ast.Name):
                names.add(n.id)
    return names
