"""Python's private names: in a class, an identifier `__x` (two leading underscores, not two
trailing ones) is renamed `_Class__x`, the class's name stripped of its leading underscores
(`self.__softmax` in `class SelfAttention` is the attribute `_SelfAttention__softmax`; a method
`def __init(self)` is stored as `_GradientPenalty__init`). Python does it when it compiles the
class; gradcli does it on the parsed program before compiling it, so the names the program
uses are the ones Python uses, and ordinary names: a renamed name never starts with two
underscores, the dunder audit sees it as any other name.

As Python: names, attributes, parameters, `global`/`nonlocal` names, `except ... as` names and
the names of functions and classes defined in the class are renamed, in its methods, lambdas
and comprehensions too; keyword names of calls are not; a class nested in the class renames
by its own name; a class whose name is only underscores renames nothing. A function keeps its
own name (`__name__` is `__init`), stored under the renamed one.
"""

from __future__ import annotations

import ast


def private_name(name: str, cls: str | None) -> str:
    """`name` as Python stores it in the class `cls` (None: outside any class)."""
    if cls is None or not name.startswith("__") or name.endswith("__") or "." in name:
        return name
    stripped = cls.lstrip("_")
    return f"_{stripped}{name}" if stripped else name


def mangle_private_names(tree: ast.AST) -> None:
    """Rename the private names of every class of `tree`, in place (iteratively: a deeply
    nested program is refused by the nesting limit later, not by Python's recursion here)."""
    if not any(isinstance(n, ast.ClassDef) for n in ast.walk(tree)):
        return
    stack: list[tuple[ast.AST, str | None]] = [(tree, None)]
    while stack:
        node, cls = stack.pop()
        if isinstance(node, ast.ClassDef):
            # The bases, keywords and decorators are evaluated where the class statement is.
            for child in (*node.bases, *node.keywords, *node.decorator_list):
                stack.append((child, cls))
            own = node.name
            node.name = private_name(own, cls)
            for child in node.body:
                stack.append((child, own))
            continue
        if cls is not None:
            if isinstance(node, ast.Name):
                node.id = private_name(node.id, cls)
            elif isinstance(node, ast.Attribute):
                node.attr = private_name(node.attr, cls)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                stored = private_name(node.name, cls)
                if stored != node.name:
                    node.shown_name = node.name  # type: ignore[attr-defined]
                    node.name = stored
            elif isinstance(node, ast.arg):
                node.arg = private_name(node.arg, cls)
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                node.names = [private_name(n, cls) for n in node.names]
            elif isinstance(node, ast.ExceptHandler) and node.name is not None:
                node.name = private_name(node.name, cls)
        for child in ast.iter_child_nodes(node):
            stack.append((child, cls))
