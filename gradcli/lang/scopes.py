"""Which names a function, lambda or comprehension binds (its locals), found before it runs,
so that every name a program reads is resolved once, when it is compiled, as Python resolves
it: a local of the running function, a variable of an enclosing function (a closure), a
module-level name, or a builtin / torch name. Class bodies are not scopes for their methods,
as in Python."""

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
    def __init__(self, kind: Kind, parent: Scope | None, names: set[str]):
        self.kind = kind
        self.parent = parent
        self.names = names

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
            # A class body runs in the frame of the scope around it.
            return self.parent.resolve(name)  # type: ignore[union-attr]
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
            s = s.parent
        return (BUILTIN, 0)

    def is_local(self, name: str) -> bool:
        return self.kind != "module" and name in self.names


def bound_names(body: list[ast.AST]) -> set[str]:
    """The names a block of statements binds in its own scope (not inside nested functions,
    lambdas, comprehensions or class bodies). Iterative: blocks may be long."""
    names: set[str] = set()
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            if not isinstance(node.ctx, ast.Load):
                names.add(node.id)
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            # Decorators, defaults and bases are evaluated here; the body is another scope.
            stack.extend(node.decorator_list)
            if isinstance(node, ast.ClassDef):
                stack.extend(node.bases)
                stack.extend(k.value for k in node.keywords)
            else:
                stack.extend(node.args.defaults)
                stack.extend(d for d in node.args.kw_defaults if d is not None)
            continue
        if isinstance(node, ast.Lambda):
            stack.extend(node.args.defaults)
            stack.extend(d for d in node.args.kw_defaults if d is not None)
            continue
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            # Only the first iterable is evaluated in the enclosing scope.
            stack.append(node.generators[0].iter)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name != "*":
                    names.add(alias.asname or alias.name.split(".")[0])
            continue
        if isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        stack.extend(ast.iter_child_nodes(node))
    return names


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
