"""The syntax a program may use: ONE table (`SYNTAX`) from each AST node type to the compiler
method that handles it, or to a refusal with a hint that says what to write instead.

The compiler (`lang.compiler`) is the only walk of the tree: compiling a program is checking
it, and a node type that the table does not name, or names as refused, is refused with its
span before anything runs. Node types that only occur inside another construct (`arguments`,
`keyword`, `comprehension`, `ExceptHandler`...) are handled by their parent's method and marked
`PART`; operators are `OP` entries, read by the compiler of their expression.

Also here: parsing program text, and spans (in characters) for Python's own syntax errors.
"""

from __future__ import annotations

import ast

from ..base.errors import Source, Span
from ..base.record import Record


class Rule(Record):
    """What a node type is in a gradcli program.

    what     how messages name it ("a `while` loop")
    handler  the `Compiler` method that compiles it; "" for parts and operators (their parent
             handles them); None: refused
    hint     for a refusal, what to write instead
    """

    _fields = ("what", "handler", "hint")
    _defaults = {"hint": None}
    what: str
    handler: str | None
    hint: str | None

    @property
    def refused(self) -> bool:
        return self.handler is None


def _ok(what: str, handler: str) -> Rule:
    return Rule(what, handler)


def _part(what: str) -> Rule:
    return Rule(what, "")


def _no(what: str, hint: str) -> Rule:
    return Rule(what, None, hint)


NOT_ASYNC = "gradcli programs are not async: write a plain `def`"

SYNTAX: dict[type, Rule] = {
    # --- statements -----------------------------------------------------------------------
    ast.Module: _ok("a program", "c_Module"),
    ast.Expr: _ok("an expression statement", "c_Expr"),
    ast.Assign: _ok("an assignment", "c_Assign"),
    ast.AugAssign: _ok("an augmented assignment", "c_AugAssign"),
    ast.AnnAssign: _ok("an annotated assignment", "c_AnnAssign"),
    ast.For: _ok("a `for` loop", "c_For"),
    ast.While: _ok("a `while` loop", "c_While"),
    ast.If: _ok("`if`", "c_If"),
    ast.With: _ok("a `with` block", "c_With"),
    ast.Break: _ok("`break`", "c_Break"),
    ast.Continue: _ok("`continue`", "c_Continue"),
    ast.Pass: _ok("`pass`", "c_Pass"),
    ast.FunctionDef: _ok("a function definition", "c_FunctionDef"),
    ast.Return: _ok("`return`", "c_Return"),
    ast.ClassDef: _ok("a class definition", "c_ClassDef"),
    ast.Import: _ok("`import`", "c_Import"),
    ast.ImportFrom: _ok("`from ... import`", "c_ImportFrom"),
    ast.Try: _ok("`try`", "c_Try"),
    ast.Raise: _ok("`raise`", "c_Raise"),
    ast.Assert: _ok("`assert`", "c_Assert"),
    ast.Global: _ok("`global`", "c_Global"),
    ast.Nonlocal: _ok("`nonlocal`", "c_Nonlocal"),
    ast.Delete: _ok("`del`", "c_Delete"),
    ast.AsyncFunctionDef: _no("`async def`", NOT_ASYNC),
    ast.AsyncFor: _no("`async for`", NOT_ASYNC),
    ast.AsyncWith: _no("`async with`", NOT_ASYNC),
    ast.Match: _ok("`match`", "c_Match"),
    ast.TryStar: _no("`except*`", "use a plain `except`"),
    # --- expressions ----------------------------------------------------------------------
    ast.Constant: _ok("a constant", "c_Constant"),
    ast.Name: _ok("a name", "c_Name"),
    ast.List: _ok("a list", "c_List"),
    ast.Tuple: _ok("a tuple", "c_Tuple"),
    ast.Dict: _ok("a dict", "c_Dict"),
    ast.Set: _ok("a set", "c_Set"),
    ast.BinOp: _ok("an operator", "c_BinOp"),
    ast.UnaryOp: _ok("an operator", "c_UnaryOp"),
    ast.BoolOp: _ok("`and` / `or`", "c_BoolOp"),
    ast.Compare: _ok("a comparison", "c_Compare"),
    ast.Call: _ok("a call", "c_Call"),
    ast.Attribute: _ok("an attribute", "c_Attribute"),
    ast.Subscript: _ok("a subscript", "c_Subscript"),
    ast.Slice: _ok("a slice", "c_Slice"),
    ast.IfExp: _ok("a conditional expression", "c_IfExp"),
    ast.Lambda: _ok("a lambda", "c_Lambda"),
    ast.ListComp: _ok("a list comprehension", "c_ListComp"),
    ast.SetComp: _ok("a set comprehension", "c_SetComp"),
    ast.DictComp: _ok("a dict comprehension", "c_DictComp"),
    ast.GeneratorExp: _ok("a generator expression", "c_GeneratorExp"),
    ast.JoinedStr: _ok("an f-string", "c_JoinedStr"),
    ast.FormattedValue: _part("an f-string field"),
    ast.Starred: _part("`*` unpacking"),
    ast.NamedExpr: _ok("`:=`", "c_NamedExpr"),
    # Statements of their own in a generator function (`Compiler.gen_block`); elsewhere the
    # handler refuses them, saying where they belong.
    ast.Yield: _ok("`yield`", "c_Yield"),
    ast.YieldFrom: _ok("`yield from`", "c_YieldFrom"),
    ast.Await: _no("`await`", NOT_ASYNC),
    # --- parts of the constructs above --------------------------------------------------------
    ast.arguments: _part("parameters"),
    ast.arg: _part("a parameter"),
    ast.keyword: _part("a keyword argument"),
    ast.alias: _part("an imported name"),
    ast.comprehension: _part("a comprehension's `for`"),
    ast.ExceptHandler: _part("`except`"),
    ast.withitem: _part("a `with` item"),
    ast.match_case: _part("a `case`"),
    ast.MatchValue: _part("a value pattern"),
    ast.MatchSingleton: _part("a `None` / `True` / `False` pattern"),
    ast.MatchAs: _part("a capture pattern"),
    ast.MatchOr: _part("an `|` pattern"),
    ast.MatchSequence: _part("a sequence pattern"),
    ast.MatchStar: _part("a `*name` pattern"),
    ast.MatchClass: _part("a class pattern"),
    ast.MatchMapping: _part("a mapping pattern"),
    ast.Load: _part("a load"),
    ast.Store: _part("a store"),
    # --- operators ------------------------------------------------------------------------
    **{
        op: _part(f"`{sym}`")
        for op, sym in (
            (ast.Add, "+"),
            (ast.Sub, "-"),
            (ast.Mult, "*"),
            (ast.Div, "/"),
            (ast.FloorDiv, "//"),
            (ast.Mod, "%"),
            (ast.Pow, "**"),
            (ast.MatMult, "@"),
            (ast.BitAnd, "&"),
            (ast.BitOr, "|"),
            (ast.BitXor, "^"),
            (ast.LShift, "<<"),
            (ast.RShift, ">>"),
            (ast.USub, "unary -"),
            (ast.UAdd, "unary +"),
            (ast.Not, "`not`"),
            (ast.Invert, "~"),
            (ast.And, "`and`"),
            (ast.Or, "`or`"),
            (ast.Eq, "=="),
            (ast.NotEq, "!="),
            (ast.Lt, "<"),
            (ast.LtE, "<="),
            (ast.Gt, ">"),
            (ast.GtE, ">="),
            (ast.Is, "`is`"),
            (ast.IsNot, "`is not`"),
            (ast.In, "`in`"),
            (ast.NotIn, "`not in`"),
        )
    },
}

# Nodes with no entry are refused as "`Name` is not supported".


def rule(node_type: type) -> Rule:
    r = SYNTAX.get(node_type)
    if r is None:
        return _no(f"`{node_type.__name__}`", "see the README's list of supported Python")
    return r


def describe(node: ast.AST) -> str:
    return rule(type(node)).what


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


def attr_span(source: Source, node: ast.Attribute) -> Span | None:
    """The span of `.attr` in `value.attr` (the part a user wrote wrong)."""
    span = source.span(node)
    if span is None or getattr(node, "end_lineno", None) != node.lineno:
        return span
    start = max(span.col, span.end_col - len(node.attr) - 1)
    return Span(source, span.line, start, span.end_col)
