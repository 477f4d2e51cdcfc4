"""The syntax a program may use, checked before anything runs: the node types allowed, the
refused ones with a hint each, nesting depth, and what Python's compiler (not its parser) would
refuse; with spans (in characters) for Python's own syntax errors."""

from __future__ import annotations

import ast

from ..base import limits
from ..base.errors import GradcliError, LimitError, Source, Span


def ast_parse(text: str, name: str) -> ast.Module:
    import warnings

    with warnings.catch_warnings():
        # SyntaxWarnings ("invalid escape sequence") would print to stderr from inside ast.
        warnings.simplefilter("ignore")
        return ast.parse(text, filename=name)


def char_span(source: Source, char: str) -> Span | None:
    """The span of the first occurrence of `char` in the source."""
    for lineno, line in enumerate(source.lines, 1):
        col = line.find(char)
        if col >= 0:
            return Span(source, lineno, col, col + 1)
    return None


def _ascii_shadow(text: str) -> str:
    """The text with every non-ASCII character replaced by one ASCII character of the same kind
    (a letter inside names, `?` elsewhere), so that offsets in bytes and in characters agree."""
    return "".join(c if c.isascii() else ("x" if ("x" + c).isidentifier() else "?") for c in text)


def syntax_span(source: Source, e: SyntaxError) -> Span | None:
    """Where a SyntaxError points, in characters. (Python reports some offsets in characters and
    some, from its tokenizer, in UTF-8 bytes; on a line with non-ASCII text the same error in an
    ASCII copy of the program tells which character is meant.)"""
    if not e.lineno:
        return None
    line = source.line(e.lineno)
    offset, end_offset, end_lineno = e.offset, e.end_offset, e.end_lineno
    if not line.isascii():
        try:
            ast_parse(_ascii_shadow(source.text), "<shadow>")
        except SyntaxError as e2:
            if e2.lineno == e.lineno:
                offset, end_offset, end_lineno = e2.offset, e2.end_offset, e2.end_lineno
        except Exception:  # noqa: BLE001 - only a better caret was at stake
            pass
    col = max(0, min((offset or 1) - 1, len(line)))
    end = col + 1
    if end_offset and end_lineno == e.lineno and end_offset - 1 > col:
        end = min(end_offset - 1, max(len(line), col + 1))
    return Span(source, e.lineno, col, end)


# Node types a program may contain (anything else is refused before running).
ALLOWED: tuple[type, ...] = (
    ast.Module,
    ast.Expr,
    ast.Assign,
    ast.AugAssign,
    ast.For,
    ast.If,
    ast.Break,
    ast.Continue,
    ast.Pass,
    ast.FunctionDef,
    ast.Return,
    ast.ClassDef,
    ast.Import,
    ast.ImportFrom,
    ast.alias,
    ast.arguments,
    ast.arg,
    ast.keyword,
    ast.Name,
    ast.Constant,
    ast.List,
    ast.Tuple,
    ast.BinOp,
    ast.UnaryOp,
    ast.BoolOp,
    ast.Compare,
    ast.Call,
    ast.Attribute,
    ast.Subscript,
    ast.Slice,
    ast.IfExp,
    ast.Load,
    ast.Store,
    ast.Del,
    ast.Add,
    ast.Sub,
    ast.Mult,
    ast.Div,
    ast.FloorDiv,
    ast.Mod,
    ast.Pow,
    ast.MatMult,
    ast.USub,
    ast.UAdd,
    ast.Not,
    ast.And,
    ast.Or,
    ast.Eq,
    ast.NotEq,
    ast.Lt,
    ast.LtE,
    ast.Gt,
    ast.GtE,
    ast.Is,
    ast.IsNot,
)


REFUSED_HINTS: dict[type, str] = {
    ast.While: "use `for i in range(N):` (loops must be bounded)",
    ast.With: "gradcli has no context managers; `with torch.no_grad():` is not needed here",
    ast.Lambda: "define a function with `def`",
    ast.ListComp: "use a `for` loop, or torch.stack / torch.cat",
    ast.GeneratorExp: "use a `for` loop",
    ast.DictComp: "use a `for` loop",
    ast.SetComp: "use a `for` loop",
    ast.JoinedStr: "use print(a, b) instead of an f-string",
    ast.NamedExpr: "assign with `=` on its own line",
    ast.Try: "gradcli programs have no exceptions to catch",
    ast.Global: "assign at the top level instead",
    ast.Nonlocal: "return the value instead",
    ast.Starred: "pass the arguments one by one",
    ast.Dict: "gradcli values are tensors, numbers, strings and lists",
    ast.Set: "use a list",
    ast.Delete: "just stop using the name",
    ast.Await: "gradcli programs are not async",
    ast.AsyncFunctionDef: "gradcli programs are not async",
    ast.Yield: "return a value instead",
    ast.Raise: "gradcli programs do not raise",
    ast.Assert: "use `gradcli check` to compare gradients",
    ast.AnnAssign: "drop the type annotation",
    ast.BitXor: "`^` is exclusive or in Python, not a power: for x squared write `x ** 2`",
    ast.LShift: "for x * 2**k write `x * 2 ** k`",
    ast.RShift: "for x / 2**k write `x / 2 ** k`",
}


def describe(node: ast.AST) -> str:
    names = {
        ast.While: "a `while` loop",
        ast.With: "a `with` block",
        ast.Lambda: "a lambda",
        ast.ListComp: "a list comprehension",
        ast.GeneratorExp: "a generator expression",
        ast.JoinedStr: "an f-string",
        ast.NamedExpr: "`:=`",
        ast.Try: "`try`",
        ast.Starred: "`*` unpacking",
        ast.Dict: "a dict",
        ast.Set: "a set",
        ast.Global: "`global`",
        ast.Raise: "`raise`",
        ast.Assert: "`assert`",
        ast.BitXor: "the operator `^`",
        ast.BitOr: "the operator `|`",
        ast.BitAnd: "the operator `&`",
        ast.LShift: "the operator `<<`",
        ast.RShift: "the operator `>>`",
        ast.Invert: "the operator `~`",
    }
    return names.get(type(node), f"`{type(node).__name__}`")


def _attr_span(source: Source, node: ast.Attribute) -> Span | None:
    """The span of `.attr` in `value.attr` (the part a user wrote wrong)."""
    span = source.span(node)
    if span is None or getattr(node, "end_lineno", None) != node.lineno:
        return span
    start = max(span.col, span.end_col - len(node.attr) - 1)
    return Span(source, span.line, start, span.end_col)


def validate(tree: ast.Module, source: Source) -> None:
    """Walk the tree iteratively, in source order: refuse unknown node types, overly deep
    nesting, and what Python's compiler (not its parser) would refuse: `break`/`continue`
    outside a loop, `return` outside a function."""
    # (node, depth, inside a loop, inside a function, the nearest node with a position)
    stack: list[tuple[ast.AST, int, bool, bool, ast.AST]] = [(tree, 0, False, False, tree)]
    depth_limit = limits.NESTING.value
    while stack:
        node, depth, in_loop, in_def, located = stack.pop()
        if hasattr(node, "lineno"):
            located = node
        if depth > depth_limit:
            raise LimitError(
                f"the program is nested too deeply (over {depth_limit} levels)",
                span=source.span(located),
                expected=f"at most {depth_limit} levels ({limits.NESTING.name})",
                hint=f"split the expression into several assignments, or raise "
                f"{limits.NESTING.env}",
            )
        if not isinstance(node, ALLOWED):
            raise GradcliError(
                f"{describe(node)} is not supported in gradcli programs",
                # An operator has no position of its own: the expression it is in.
                span=source.span(node) or source.span(located),
                found=describe(node),
                expected="the operators + - * / // % ** @ and comparisons"
                if isinstance(node, ast.operator | ast.unaryop)
                else "assignments, expressions, bounded `for` loops, `if`, `def`, imports "
                "of torch/numpy",
                hint=REFUSED_HINTS.get(type(node)),
            )
        if isinstance(node, ast.Constant):
            if not isinstance(node.value, (int, float, str, bool, type(None), type(Ellipsis))):
                raise GradcliError(
                    "this kind of constant is not supported",
                    span=source.span(node),
                    found=type(node.value).__name__,
                    expected="numbers, strings, True/False/None",
                )
            if isinstance(node.value, int) and node.value.bit_length() > limits.INT_BITS.value:
                try:
                    limits.INT_BITS.check(node.value.bit_length(), "the size of an integer in bits")
                except GradcliError as e:
                    raise e.with_span(source.span(node)) from None
        if isinstance(node, ast.Attribute) and node.attr.startswith("__"):
            raise GradcliError(
                f"`.{node.attr}` is not accessible in gradcli programs",
                span=_attr_span(source, node),
                found=f"`.{node.attr}`",
                expected="a tensor method or property (see `gradcli ops`)",
                hint="gradcli programs cannot reach Python's internals",
            )
        if isinstance(node, (ast.Break, ast.Continue)) and not in_loop:
            word = "break" if isinstance(node, ast.Break) else "continue"
            raise GradcliError(
                f"`{word}` outside a loop",
                span=source.span(node),
                hint=f"`{word}` belongs inside a `for` loop",
            )
        if isinstance(node, ast.Return) and not in_def:
            raise GradcliError(
                "`return` outside a function",
                span=source.span(node),
                hint="`return` belongs inside a `def`",
            )
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            in_loop = False
            in_def = isinstance(node, ast.FunctionDef)
        body = set(map(id, node.body)) if isinstance(node, ast.For) else set()
        children = list(ast.iter_child_nodes(node))
        for child in reversed(children):  # popped in source order
            stack.append((child, depth + 1, in_loop or id(child) in body, in_def, located))
