"""A program compiled once, node by node, into Python closures: `compile_program(tree, source)`
returns a function of the module's frame that runs the program.

Compiling is checking: every node type goes through the one table of `lang.syntax` (a node it
refuses, or does not name, is refused here with its span, before anything runs), together with
the rules Python's compiler applies (nesting depth, `break`/`continue` outside a loop, `return`
outside a function) and gradcli's own (no dunder attributes, decorators and class bodies of
the supported forms). What runs is closures only: nothing in a program is ever given to
`eval`, `exec` or `compile`, and every name a program reads is resolved here, once, as Python
resolves it (`lang.scopes`): local, enclosing function, module, or builtin.

A compiled statement takes the frame it runs in and returns None, or a control signal
(`BREAK`, `CONTINUE`, `RETURN`: the value is in the frame). A compiled expression takes the
frame and returns its value. The statement wrapper ticks the run budget and gives errors the
statement's span; calls, operators, attributes and subscripts give errors their own spans.
"""

from __future__ import annotations

import ast
import collections
import copy as _copy
from collections.abc import Callable
from types import FunctionType
from typing import Any, NamedTuple

import numpy as np
from numpy import integer as _np_integer

from ..base import limits
from ..base.errors import GradcliError, LimitError, NotSupported, Source, Span, suggest
from ..core import hooks as _hooks
from ..core.dtypes import program_float
from ..core.op import SEQ, complex_refusal
from ..core.tensor import WIDE_UINT, Tensor, _GradMode, typename
from ..surface import indexing as I
from ..surface import names, public
from ..surface import nn as surface_nn
from . import exceptions as X
from .builtins import BUILTINS, C_FUNCTION, TYPE_BUILTIN, delete_attribute
from .calls import (
    CONVERTED,
    call_name,
    call_positional,
    checked_call,
    is_argument_error,
    user_error,
)
from .classes import (
    FUNCTION_FLAGS,
    MODULE_DUNDERS,
    OPERATOR_DUNDERS,
    PLAIN_DUNDERS,
    ClassMethod,
    FunctionClass,
    ModuleClass,
    OptimClass,
    PlainClass,
    Property,
    Super,
    as_exception,
    library_module,
    own_dunder,
    program_dunder,
    program_index,
)
from .dunders import VALUE_DUNDERS, value_dunder
from .formatting import field, join
from .gradmode import GradMode, GradModeClass
from .namespaces import (
    IMPORTABLE,
    NAMED_TUPLE,
    ONCE_DIFFERENTIABLE,
    PASS_THROUGH_DECORATORS,
    TENSOR_METHODS,
    TENSOR_PROPERTIES,
    Flags,
    build_namespaces,
    data_alias,
)
from .operators import _TENSOR_BINOPS, augmented, binop, compare, unary
from .progress import Progress
from .pydataclasses import Dataclass
from .pyenum import ENUM_BASE, INT_ENUM_BASE, enum_class
from .pywarnings import CatchWarnings
from .scopes import (
    BUILTIN,
    FREE,
    GLOBAL,
    LOCAL,
    Scope,
    bound_names,
    declarations,
    declared_global_anywhere,
    parameter_names,
    walrus_names,
)
from .syntax import SYNTAX, attr_span, rule
from .values import (
    BARE_UNUSED_MODULES,
    BREAK,
    CONTINUE,
    FROM_IMPORT_MODULES,
    FUNCTION_BASE,
    FUNCTOOLS,
    PROGRAM_INSTANCES,
    RETURN,
    UNUSED_MODULES,
    BoundMethod,
    Builtin,
    Frame,
    FunctionCode,
    Generator,
    Missing,
    ModuleType,
    Namespace,
    ProgramExit,
    PyType,
    UnusedModule,
    UserFunction,
    as_index,
    imported_member,
    iterate,
    length,
    seq,
    truth,
)
from .values import FX_TRACING as _FX_TRACING

Expr = Callable[[Frame], Any]
Stmt = Callable[[Frame], Any]
Store = Callable[[Frame, Any], None]

_MISSING = object()
# A lazy module's parameter before its first call takes the slow path of attributes (its uses
# are PyTorch's errors: `runtime._uninitialized_attribute`).
_LAZY = surface_nn.LAZY
_UNINITIALIZED = surface_nn.UNINITIALIZED
_SAVED_PENDING = _hooks.saved_pending  # (one list, never rebound)
# The features `from __future__ import ...` may name (all are how Python 3 works already).
_FUTURE = frozenset(
    (
        "annotations",
        "division",
        "print_function",
        "absolute_import",
        "unicode_literals",
        "generators",
        "nested_scopes",
        "with_statement",
        "generator_stop",
    )
)
# Attributes with dunders a program may name: `super().__init__()` and a class's `__name__`.
# Builtins a notebook calls for their display only (refused where their value is used).
_DISPLAY_ONLY = ("dir", "vars")  # (help() prints its text when not on a terminal)
# What a torch.autograd.Function subclass's class table holds for PyTorch (the other methods
# are the program's helpers: `F.helper(x)`).
_FUNCTION_OWN = frozenset(
    ("forward", "backward", "setup_context", "jvp", "vmap", "__init__", "apply")
) | frozenset(FUNCTION_FLAGS)
_DUNDERS_ALLOWED = ("__name__", "__version__")  # __version__: a string on torch and numpy


def _c_function(v: Any) -> bool:
    """Whether PyTorch implements the function `v` stands for in C (a built-in method or
    function in its table of reprs)."""
    from .torch_reprs import entry

    found = entry(v)
    return found is not None and found[0] in ("M", "B")


C_FUNCTION[0] = _c_function


# What a program that imports must import for the usual short names (a NameError's hint).
_IMPORT_HINTS = {
    "torch": "add `import torch`",
    "F": "add `import torch.nn.functional as F`",
    "nn": "add `import torch.nn as nn` (or `from torch import nn`)",
    "np": "add `import numpy as np`",
    "optim": "add `import torch.optim as optim`",
}
# The names a notebook defines that a pasted cell may use, and what to write instead.
_NOTEBOOK_HINTS = {
    "display": "`display` is the notebook's (IPython's) display function: write print(...)",
    "get_ipython": "`get_ipython()` exists only in a notebook (IPython), to run its magics: "
    "delete the line",
    "In": "`In [n]:` is a notebook's prompt pasted with the code: delete the prompts",
    "Out": "`Out[n]:` is a notebook's output prompt pasted with the code: delete it and the "
    "output shown",
    "tensor": "write torch.tensor(...) (or import it: from torch import tensor); a line "
    "`tensor([...])` of printed output pasted with the code is to be deleted",
}


# The settings objects (namespaces.Flags) that are modules in PyTorch, so importable by name.
_FLAG_MODULES = frozenset(
    {"torch.backends.cudnn", "torch.backends.mkldnn", "torch._dynamo.config"}
    | {"torch._inductor.config", "torch._functorch.config", "torch.compiler.config"}
)


def _imports_without_star(tree: ast.Module) -> bool:
    """Whether the program is a script in Python's terms: it has `import torch` (anywhere),
    and nothing with `import *` (whose names no statement of the program spells). (A program
    that only imports from torch, `import torch.nn as nn` then `torch.ones`, keeps the bare
    names: snippets written for gradcli's analyses do so.)"""
    found = False
    for n in ast.walk(tree):
        if isinstance(n, ast.ImportFrom):
            if any(a.name == "*" for a in n.names):
                return False
        elif isinstance(n, ast.Import):
            found = found or any(a.name == "torch" for a in n.names)
    return found


def compile_program(tree: ast.Module, source: Source) -> Stmt:
    try:
        return Compiler(source).c_Module(tree)
    except RecursionError:
        raise LimitError(
            "the program is nested too deeply",
            expected=f"at most {limits.NESTING.value} levels of nesting ({limits.NESTING.name})",
            hint="split long or deeply nested expressions into several assignments",
        ) from None


def _docstring(node: ast.AST) -> str | None:
    """A def's or class's docstring as Python 3.11 keeps it in `__doc__` (not dedented)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return ast.get_docstring(node, clean=False)
    return None  # (a lambda has none)


def program_doc(rt: Any, owner: Any) -> Any:
    """`f.__doc__`, `Cls.__doc__`, `obj.__doc__`: the docstring the program wrote for its own
    function or class (None without one; a class's is not inherited, as Python's). PyTorch's
    and Python's docstrings are not in gradcli: refused."""
    if isinstance(owner, BoundMethod) and isinstance(owner.user, UserFunction):
        owner = owner.user
    if isinstance(owner, UserFunction):
        shown = owner.shown  # functools.wraps copies the wrapped function's docstring
        code = shown.code if isinstance(shown, UserFunction) else owner.code
        return _docstring(code.node)
    cls = getattr(owner, "cls", None) if not isinstance(owner, Tensor) else None
    for c in (owner, cls):
        entry = rt.class_docs.get(id(c)) if c is not None else None
        if entry is not None and entry[0] is c:
            return entry[1]
    raise NotSupported(
        f"`.__doc__` of {typename(owner)} is not supported: gradcli has the docstrings of the "
        "program's own functions and classes only",
        found="`.__doc__`",
        hint="print the program's own text instead",
    )


class _LooseSlice(NamedTuple):
    """A slice with a real or complex number in it (`np.mgrid[-1:1:5j]`), its first such part."""

    slice: slice
    value: Any
    span: Any


def _slice_error(v: Any, span: Any) -> GradcliError:
    return GradcliError(
        "slice indices must be integers or None or have an __index__ method",
        hint=f"found {typename(v)}; give an int",
        span=span,
    ).mirror("TypeError")


def _has_slice(node: ast.expr) -> bool:
    """Whether the key holds a slice that may carry a number that is not an integer (`a:b`
    of names or expressions); `:`, `1:-1` and other integer literals never do, so the common
    subscripts skip the check."""

    def loose(e: ast.expr) -> bool:
        if not isinstance(e, ast.Slice):
            return False
        for part in (e.lower, e.upper, e.step):
            if part is None:
                continue
            if isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.USub):
                part = part.operand
            if not (isinstance(part, ast.Constant) and type(part.value) is int):
                return True
        return False

    if isinstance(node, ast.Tuple):
        return any(loose(e) for e in node.elts)
    return loose(node)


def _strict(key: Any) -> Any:
    """The key, Python's TypeError for a slice with a number that is not an integer."""
    if type(key) is _LooseSlice:
        raise _slice_error(key.value, key.span)
    if type(key) is tuple:
        for part in key:
            if type(part) is _LooseSlice:
                raise _slice_error(part.value, part.span)
    return key


def _loosened(key: Any) -> Any:
    if type(key) is _LooseSlice:
        return key.slice
    if type(key) is tuple:
        return tuple(p.slice if type(p) is _LooseSlice else p for p in key)
    return key


def _pattern_names(p: ast.AST) -> set[str]:
    """The names a `case` pattern binds."""
    return {n.name for n in ast.walk(p) if isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name}


def _chosen_case(cases: list, f: Any, v: Any) -> Any:
    """The body of the first case whose pattern matches `v` and whose guard holds, or None."""
    for matches, guard, body, gspan in cases:
        if not matches(f, v):
            continue
        if guard is not None:
            try:
                ok = truth(guard(f))
            except GradcliError as e:
                raise e.with_span(gspan) from None
            if not ok:
                continue
        return body
    return None


def _self_matching() -> tuple:
    from .builtins import BUILTINS

    names = ("bool", "bytes", "dict", "float", "frozenset", "int", "list", "set", "str", "tuple")
    return tuple(BUILTINS[n] for n in names)


class _SelfMatching:
    """The builtin classes whose one positional pattern matches the subject itself
    (`case int(n):`), as Python's `__match_args__` rule for them."""

    def __contains__(self, c: Any) -> bool:
        return any(c is b for b in _self_matching())


_SELF_MATCHING = _SelfMatching()


def _attach(e: BaseException, span: Any) -> BaseException:
    """The exception to raise for `e` at `span`: a GradcliError learns its place; Python's
    error on a program's value becomes the program's error; anything else is unchanged."""
    if isinstance(e, GradcliError):
        if e.span is None:
            e.span = span
        return e
    if isinstance(e, CONVERTED) and is_argument_error(e):
        return user_error(e, span)
    if type(e).__name__ == "ComplexWarning":  # (NumPy's, not imported here)
        # a complex value reached a conversion to a real one (`core.op`): refused
        return complex_refusal("this operation").with_span(span)
    return e


def loop_items(items: Any, span: Span) -> Any:
    """The items a `for` loop walks (in a function or a generator): refused at once when their
    number is known and over the loop limit, rather than after a million iterations."""
    cap = limits.LOOP_ITERATIONS.value
    n = length(items)
    if n is not None and n > cap:
        raise LimitError(
            f"this loop would run {n:,} times, over the limit of {cap:,} loop iterations",
            span=span,
            found=f"{n:,} iterations",
            expected=f"at most {cap:,} ({limits.LOOP_ITERATIONS.name})",
            hint=f"raise it with the environment variable "
            f"{limits.LOOP_ITERATIONS.env}=N if you need more",
        )
    try:
        it = iterate(items, "for")
    except GradcliError as e:
        raise e.with_span(span) from None
    if isinstance(items, (dict, set, collections.deque)):
        # (changed by the loop's body: Python's RuntimeError, the program's error)
        from .pycollections import guarded

        return guarded(it)
    return it


def delete_item(o: Any, k: Any) -> None:
    """`del o[k]` for a list (an index or a slice of ints) or a dict (a key)."""
    if isinstance(o, (list, dict)):
        from .pyobjects import vmap_outer_change

        vmap_outer_change(o, "a `del` of an item")
    if isinstance(o, list):
        if isinstance(k, (Tensor, _np_integer, bool)):  # by its __index__, as Python takes it
            k = int(as_index(k))
        if isinstance(k, slice):
            for v in (k.start, k.stop, k.step):
                if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
                    raise GradcliError(
                        "slice indices must be integers or None or have an __index__ method"
                    ).mirror("TypeError")
            if k.step == 0:
                raise GradcliError("slice step cannot be zero").mirror("ValueError")
        elif isinstance(k, bool) or not isinstance(k, int):
            raise GradcliError(
                f"list indices must be integers or slices, not {typename(k)}"
            ).mirror("TypeError")
        elif not -len(o) <= k < len(o):
            raise GradcliError("list assignment index out of range").mirror("IndexError")
        del o[k]
        return
    if isinstance(o, surface_nn.ModuleEntries):
        from .pyobjects import delete_module_entry

        delete_module_entry(o, k)
        return
    if isinstance(o, surface_nn.ModuleDict):
        o = o._modules  # `del md[key]`: as a dict's item
    elif hasattr(type(o), "program_delitem"):
        o.program_delitem(k)
        return
    if isinstance(o, dict):
        try:
            del o[k]
        except KeyError:
            raise X.ProgramError(X.CLASSES["KeyError"](k)) from None
        except TypeError:
            raise GradcliError(f"unhashable type: '{typename(k)}'").mirror("TypeError") from None
        return
    if isinstance(o, Tensor):
        raise GradcliError("Tensor does not support deleting items").mirror("TypeError")
    if isinstance(o, (tuple, str)):
        raise GradcliError(f"'{typename(o)}' object doesn't support item deletion").mirror(
            "TypeError"
        )
    raise NotSupported(
        f"`del` of an item of a {typename(o)} is not supported by gradcli",
        hint="make a new value without the item instead",
    )


_IMPORTS = (
    "imports of "
    + ", ".join(IMPORTABLE)
    + " (matplotlib draws nothing; functorch is torch.func); os, sys, re, json, functools and "
    "the data and plotting libraries a script loads may be imported but not used"
)


class LazySpan(Span):
    """A node's span, worked out (in characters) only when an error shows it: a program
    compiles one for each node that can fail, and almost none ever does."""

    def __init__(self, source: Source, node: ast.AST):  # noqa: D107 - fields come later
        self.source = source
        self._node = node

    def __getattr__(self, name: str) -> Any:
        if name in ("line", "col", "end_col"):
            real = self.source.span(self._node)
            self.line, self.col, self.end_col = real.line, real.col, real.end_col
            return getattr(self, name)
        raise AttributeError(name)


# The names a script's globals() holds before its first statement (Python 3.11).
_SCRIPT_GLOBALS = frozenset(
    (
        "__name__",
        "__doc__",
        "__package__",
        "__loader__",
        "__spec__",
        "__annotations__",
        "__builtins__",
        "__file__",
        "__cached__",
    )
)

# Python builtins a gradcli program cannot have, and why (what to write instead).
_CODE = "gradcli runs only the program's own code: write the expression itself"
_REFLECT = "gradcli programs cannot look into Python's objects; print the value or its type()"
_REFUSED_BUILTINS: dict[str, str] = {
    "eval": _CODE,
    "exec": _CODE,
    "compile": _CODE,
    "__import__": "use an import statement (torch, numpy, math, random, ...)",
    "open": "a gradcli program cannot read or write files; write the data in the program",
    "input": "a gradcli program reads no input; give the value in the program (or --set)",
    "breakpoint": "gradcli runs programs without a debugger; print what you want to see",
    "help": "see `gradcli ops` and the README",
    "globals": _REFLECT,
    "locals": _REFLECT,
    "setattr": "assign the attribute: obj.name = value",
    "memoryview": "use a tensor or a list",
    "bytearray": "use bytes (b = bytes([...]), b1 + b2) or a list of ints: gradcli has no "
    "mutable byte buffers",
}


def _named_tuple_class(
    name: str, made: dict[str, Any], annotations: tuple[tuple[str, str], ...], span: Span
) -> Any:
    """`class P(NamedTuple): x: int; y: float = 0.0` (fields and defaults only)."""
    from .pycollections import NamedTupleClass

    fields = tuple(n for n, _ in annotations)
    for k, v in made.items():
        if k not in fields and isinstance(v, UserFunction):
            raise NotSupported(
                "methods in a NamedTuple class are not supported",
                span=span,
                hint="write a plain function that takes the tuple, or use @dataclass",
            )
    defaults: dict[str, Any] = {}
    for n in fields:
        if n in made:
            defaults[n] = made[n]
        elif defaults:
            given = ", ".join(defaults)
            raise GradcliError(
                f"Non-default namedtuple field {n} cannot follow default field"
                f"{'s' * (len(defaults) > 1)} {given}",
                span=span,
            ).mirror("TypeError")
    return NamedTupleClass(name, fields, defaults)


def _leave_raising(entered: list, error: GradcliError | None) -> bool:
    """Leave a `with` statement's context managers, innermost first, as its block raised:
    a manager that catches errors (`self.assertRaises(E)`, `self.subTest()`) may swallow a
    catchable `error` (True: the statement ends normally, the outer managers left normally);
    the others are left as on any exit (`exit_error` where a manager's differs)."""
    while entered:
        cm = entered.pop()
        catches = getattr(cm, "catches", None)
        if error is not None and catches is not None and catches(error):
            for outer in reversed(entered):
                outer.exit()
            entered.clear()
            return True
        getattr(cm, "exit_error", cm.exit)()
    return False


def _class_of_constructor(v: Any) -> Any:
    """A base class as the program names it: `torch.optim.Adam` or `lr_scheduler.LambdaLR`,
    which a program holds as constructors, stand for their classes (one of torch's optimizers
    or schedulers, what a program's subclass builds on)."""
    made = getattr(v, "made_class", None) if callable(v) else None
    if isinstance(made, type) and getattr(made, "PROGRAM_BASE", None) is not None:
        return made
    if isinstance(v, PyType) and len(v.types) == 1 and getattr(v.types[0], "PROGRAM_BASE", None):
        return v.types[0]  # prune.BasePruningMethod: a program's pruning method builds on it
    if isinstance(v, ModuleType):
        # `class MaskedLinear(nn.Linear)`, `class MyConv(nn.Conv2d)`: the module's class, or
        # the class standing for its constructor
        library = v.library()
        if library_module(library):
            return library
    fn = getattr(v, "fn", None)
    base = getattr(fn, "distribution_class", None)
    if isinstance(base, type) and getattr(base, "PROGRAM_BASE", None) is not None:
        return base  # torch.distributions.Distribution: a program's distribution builds on it
    if isinstance(v, Builtin) and isinstance(fn, type) and v.name.startswith("torch.distrib"):
        from ..surface import distributions as DS

        if fn in DS.CLASSES.values():  # `class StraightThrough(OneHotCategorical)`
            return fn
    return v


def _script_module_base(v: Any) -> bool:
    """Whether a base class is `torch.jit.ScriptModule` (TorchScript's legacy way: a module
    class whose methods are marked `@torch.jit.script_method`)."""
    return isinstance(v, PyType) and v.shown == "torch.jit._script.ScriptModule"


def _main_base(evaluated: list[tuple[Any, Any]]) -> Any:
    """The base that makes the kind of a class: its one base, or of several bases the one
    nn.Module (or nn.Module subclass of the program's) among plain classes of the program
    (mixins); None for none. Anything else among several bases is refused there."""
    if len(evaluated) <= 1:
        return evaluated[0][0] if evaluated else None
    kinds = [
        v
        for v, _ in evaluated
        if v is surface_nn.Module or isinstance(v, ModuleClass) or library_module(v)
    ]
    for v, at in evaluated:
        # (Python's exception classes may be several bases of an exception class, not a module's)
        if not (
            isinstance(v, PlainClass)
            or v is surface_nn.Module
            or isinstance(v, ModuleClass)
            or library_module(v)
            or (isinstance(v, X.ExcClass) and not kinds)
        ):
            raise NotSupported(
                f"a class with several base classes is not supported with "
                f"{_base_shown(v)} among them",
                span=at,
                expected="the program's own classes (plain classes as mixins) and at most "
                "nn.Module",
                hint="derive from one class (or write the shared methods in it)",
            )
    return kinds[0] if kinds else evaluated[0][0]


def _base_shown(v: Any) -> str:
    from .builtins import TYPE_BUILTIN

    if isinstance(v, type) and getattr(v, "PROGRAM_BASE", None) is not None:
        return v.__name__  # torch's class a program's class builds on (Normal, Optimizer)
    cls = TYPE_BUILTIN.fn(v)
    return getattr(v, "name", None) or getattr(cls, "name", None) or "this class"


def _check_mixins(cls: Any) -> None:
    """A plain class mixed into an nn.Module subclass brings methods and class attributes:
    its dunder methods (`__repr__`, `__call__`...) would change how the module is printed or
    called, which the module's base does not ask the program's classes: refused."""
    for c in cls.mro:
        if isinstance(c, PlainClass):
            for key, value in c.attrs.items():
                if key.startswith("__") and key != "__init__" and isinstance(value, UserFunction):
                    raise NotSupported(
                        f"method `{key}` of the mixin {c.name} is not supported in an "
                        f"nn.Module subclass ({cls.name})",
                        hint="define a plain method and call it by its name",
                    )


def _is_abc(b: ast.expr) -> bool:
    """`ABC` or `abc.ABC` as a class's base."""
    return (isinstance(b, ast.Name) and b.id == "ABC") or (
        isinstance(b, ast.Attribute)
        and b.attr == "ABC"
        and isinstance(b.value, ast.Name)
        and b.value.id == "abc"
    )


class Compiler:
    def __init__(self, source: Source):
        self.source = source
        self.scope = Scope("module", None, set())
        self.depth = 0
        self.depth_limit = limits.NESTING.value
        self.in_loop = False
        self.in_function = False
        self.method: FunctionCode | None = None  # the method whose body is compiling
        self.namespaces = build_namespaces()
        # A program with `import torch` is Python: a name it neither binds nor imports (`F`
        # without `import torch.nn.functional as F`) is Python's NameError, not the torch name
        # gradcli lets a bare name reach in a snippet without it (`sin(x)`). c_Module.
        self.strict_names = False

    # -- the table ---------------------------------------------------------------------------
    def span(self, node: ast.AST) -> Any:
        if getattr(node, "lineno", None) is None:
            return None
        return LazySpan(self.source, node)

    def refuse(self, node: ast.AST, message: str | None = None, **kw: Any) -> NotSupported:
        r = rule(type(node))
        return NotSupported(
            message or f"{r.what} is not supported in gradcli programs",
            span=self.span(node),
            found=kw.pop("found", r.what),
            expected=kw.pop(
                "expected",
                "Python as PyTorch tutorials use it (see the README's list of supported Python)",
            ),
            hint=kw.pop("hint", r.hint),
        )

    def _enter(self, node: ast.AST) -> Callable[[Any], Any]:
        r = SYNTAX.get(type(node))
        if r is None or r.handler is None or r.handler == "":
            raise self.refuse(node)
        self.depth += 1
        if self.depth > self.depth_limit:
            raise LimitError(
                f"the program is nested too deeply (over {self.depth_limit} levels)",
                span=self.span(node),
                expected=f"at most {self.depth_limit} levels ({limits.NESTING.name})",
                hint=f"split the expression into several assignments, or raise "
                f"{limits.NESTING.env}",
            )
        return getattr(self, r.handler)

    def expr(self, node: ast.AST) -> Expr:
        handler = self._enter(node)
        try:
            return handler(node)
        finally:
            self.depth -= 1

    def stmt(self, node: ast.AST) -> Stmt:
        handler = self._enter(node)
        try:
            return self.wrap(handler(node), node)
        finally:
            self.depth -= 1

    def wrap(self, fn: Stmt, node: ast.AST) -> Stmt:
        """A statement as it runs: a tick of the budget, errors given the statement's span."""
        span = self.span(node)
        tick = limits.BUDGET.tick

        def run(f: Frame) -> Any:
            try:
                # Inside the try: the time limit found at this tick is this statement's.
                tick()
                # `f.rt.current_stmt = node`, inline (every statement): the statement running,
                # and where the nodes recorded from now on start (`Runtime.marks`).
                rt = f.rt
                rt._stmt = node
                seq, marks = SEQ[0], rt.marks
                if marks and marks[-1][0] == seq:
                    marks[-1] = (seq, node)
                else:
                    marks.append((seq, node))
                r = fn(f)
                if _SAVED_PENDING:  # saved_tensors_hooks: pack what the statement recorded
                    _hooks.saved_flush()
                return r
            except GradcliError as e:
                if e.span is None:
                    e.span = span
                raise
            except RecursionError:
                raise LimitError(
                    "the program recursed too deeply",
                    span=span,
                    hint="user functions may not call themselves without bound",
                ) from None
            except MemoryError:
                raise LimitError(
                    "out of memory", span=span, hint="the tensors are too large for this machine"
                ) from None
            except CONVERTED as e:
                # Python's own error on one of the program's values where gradcli interprets
                # them: still the program's error (exit 1, with its place; `--debug` shows
                # where it came from). Anything else is gradcli's bug, and propagates.
                if not is_argument_error(e):
                    raise
                raise user_error(e, span) from e

        return run

    def block(self, stmts: list[ast.stmt]) -> Stmt:
        fns = tuple(self.stmt(s) for s in stmts)
        if not fns:
            return _nothing
        if len(fns) == 1:
            return fns[0]

        def run(f: Frame) -> Any:
            for s in fns:
                r = s(f)
                if r is not None:
                    return r
            return None

        return run

    # -- module, scopes --------------------------------------------------------------------------
    def c_Module(self, node: ast.Module) -> Stmt:
        # A function's `global x` and its `x = ...` bind a module-level name (as in Python).
        names = bound_names(node.body) | declared_global_anywhere(node)
        self.scope = Scope("module", None, names)
        self.strict_names = _imports_without_star(node)
        declared, _ = declarations(node.body)
        if declared:  # (a no-op at module level, but checked as Python checks it)
            _check_use_before_declaration(node.body, declared, self.syntax_error)
        return self.block(node.body)

    def syntax_error(self, message: str, at: ast.AST) -> GradcliError:
        """A SyntaxError Python's compiler raises before anything runs."""
        return GradcliError(f"syntax error: {message}", span=self.span(at)).mirror(None)

    def c_Global(self, node: ast.Global) -> Stmt:
        """`global x`: read and written in the module's variables (the function's scope,
        made when it is compiled, says so); at module level, nothing."""
        if self.scope.kind == "class":
            raise self.refuse(node, "`global` in a class body is not supported", hint=_DECLARE)
        return _nothing

    def c_Nonlocal(self, node: ast.Nonlocal) -> Stmt:
        """`nonlocal x`: read and written in the frame of the function around (see c_Global)."""
        if self.scope.kind == "module":
            raise self.syntax_error("nonlocal declaration not allowed at module level", node)
        if self.scope.kind == "class":
            raise self.refuse(node, "`nonlocal` in a class body is not supported", hint=_DECLARE)
        return _nothing

    def declared(
        self, body: list[ast.stmt], params: list[str], local: set[str]
    ) -> tuple[frozenset[str], frozenset[str]]:
        """A function body's `global` / `nonlocal` names, checked as Python's compiler checks
        them (a SyntaxError before anything runs)."""
        globals_, nonlocals = declarations(body)
        if not globals_ and not nonlocals:
            return frozenset(), frozenset()
        bad = self.syntax_error

        for name, at in {**globals_, **nonlocals}.items():
            if name in params:
                kind = "global" if name in globals_ else "nonlocal"
                raise bad(f"name '{name}' is parameter and {kind}", at)
            if name in globals_ and name in nonlocals:
                raise bad(f"name '{name}' is nonlocal and global", globals_[name])
        _check_use_before_declaration(body, {**globals_, **nonlocals}, bad)
        for name, at in nonlocals.items():
            s = self.scope  # the scope around the function being compiled
            while True:
                if s.kind == "module" or name in s.globals_:
                    raise bad(f"no binding for nonlocal '{name}' found", at)
                if s.kind != "class" and name in s.names:
                    break
                s = s.parent  # type: ignore[assignment]
        local -= globals_.keys() | nonlocals.keys()
        return frozenset(globals_), frozenset(nonlocals)

    # -- simple statements -----------------------------------------------------------------------
    def c_Expr(self, node: ast.Expr) -> Stmt:
        call = node.value
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id in _DISPLAY_ONLY
        ):
            # `dir(optim)` / `vars(m)` alone on a line, a notebook cell's display: in
            # a script its value is dropped: only the arguments
            # are evaluated, unless the program binds the name itself
            fname = call.func.id
            args = [
                self.expr(a.value if isinstance(a, ast.Starred) else a)
                for a in (*call.args, *(k.value for k in call.keywords))
            ]
            whole = self.expr(call)

            def display_only(f: Frame) -> None:
                if fname in f.vars or fname in f.rt.globals:
                    whole(f)
                    return
                for a in args:
                    a(f)

            return display_only
        value = self.expr(node.value)

        def run(f: Frame) -> None:
            value(f)

        return run

    def c_Pass(self, node: ast.Pass) -> Stmt:
        return _nothing

    def c_Break(self, node: ast.Break) -> Stmt:
        if not self.in_loop:
            raise GradcliError(
                "`break` outside a loop",
                span=self.span(node),
                hint="`break` belongs inside a `for` or `while` loop",
            ).mirror(None)
        return lambda f: BREAK

    def c_Continue(self, node: ast.Continue) -> Stmt:
        if not self.in_loop:
            raise GradcliError(
                "`continue` outside a loop",
                span=self.span(node),
                hint="`continue` belongs inside a `for` or `while` loop",
            ).mirror(None)
        return lambda f: CONTINUE

    def c_Return(self, node: ast.Return) -> Stmt:
        if not self.in_function:
            raise GradcliError(
                "`return` outside a function",
                span=self.span(node),
                hint="`return` belongs inside a `def`",
            ).mirror(None)
        if node.value is None:

            def run_none(f: Frame) -> Any:
                f.ret = None
                return RETURN

            return run_none
        value = self.expr(node.value)

        def run(f: Frame) -> Any:
            f.ret = value(f)
            return RETURN

        return run

    def c_Assign(self, node: ast.Assign) -> Stmt:
        value = self.expr(node.value)
        stores = [self.store(t) for t in node.targets]
        if len(stores) == 1:
            store = stores[0]

            def run(f: Frame) -> None:
                store(f, value(f))

            return run

        def run_many(f: Frame) -> None:
            v = value(f)
            for s in stores:
                s(f, v)

        return run_many

    def c_Delete(self, node: ast.Delete) -> Stmt:
        deleters = [self.deleter(t) for t in node.targets]

        def run(f: Frame) -> None:
            for d in deleters:
                d(f)

        return run

    def deleter(self, target: ast.AST) -> Callable[[Frame], None]:
        """`del name`, `del d[key]`, `del items[i]` / `del items[a:b]` of a list: the name
        unbound, the item removed, as Python does; `del` of anything else is refused."""
        span = self.span(target)
        if isinstance(target, (ast.Tuple, ast.List)):
            parts = [self.deleter(e) for e in target.elts]

            def del_all(f: Frame) -> None:
                for d in parts:
                    d(f)

            return del_all
        if isinstance(target, ast.Name):
            name = target.id
            if name in self.scope.globals_ or name in self.scope.nonlocals:
                return self.del_declared(name, span)
            local = self.scope.kind != "module"

            def del_name(f: Frame) -> None:
                if name not in f.vars:
                    if local:
                        raise GradcliError(
                            f"cannot access local variable '{name}' where it is not "
                            "associated with a value",
                            span=span,
                        ).mirror("UnboundLocalError")
                    raise GradcliError(f"name '{name}' is not defined", span=span).mirror(
                        "NameError"
                    )
                del f.vars[name]

            return del_name
        if isinstance(target, ast.Subscript):
            owner = self.expr(target.value)
            key = self.strict_key(target.slice)

            def del_item(f: Frame) -> None:
                o, k = owner(f), key(f)
                try:
                    delete_item(o, k)
                except Exception as e:  # noqa: BLE001 - re-raised with its place
                    raise _attach(e, span) from None

            return del_item
        if isinstance(target, ast.Attribute) and target.attr != "grad":
            owner = self.expr(target.value)
            attr = target.attr
            if attr.startswith("__"):
                raise self.refuse(
                    target,
                    f"`del` of `.{attr}` is not supported",
                    hint="gradcli programs cannot reach Python's internals",
                )

            def del_attr(f: Frame) -> None:
                o = owner(f)
                try:
                    delete_attribute(o, attr)
                except Exception as e:  # noqa: BLE001 - re-raised with its place
                    raise _attach(e, span) from None

            return del_attr
        if isinstance(target, ast.Attribute) and target.attr == "grad":
            owner = self.expr(target.value)

            def del_grad(f: Frame) -> None:  # `del x.grad`: PyTorch sets it to None
                o = owner(f)
                if not isinstance(o, Tensor):
                    raise NotSupported(
                        "`del` of an attribute is not supported",
                        span=span,
                        hint="assign None instead",
                    )
                try:
                    f.rt.set_attribute(o, "grad", None)
                except Exception as e:  # noqa: BLE001 - re-raised with its place
                    raise _attach(e, span) from None

            return del_grad
        raise self.refuse(
            target,
            "`del` of an attribute is not supported",
            hint="assign None instead (`x.grad = None`), or rebind the name",
        )

    def c_AnnAssign(self, node: ast.AnnAssign) -> Stmt:
        # The annotation is never evaluated (as `from __future__ import annotations`).
        if node.value is None:
            # A bare annotation of an attribute or an item evaluates its target but the last
            # step, as Python does in any scope: `obj.w: int` reads obj, and `Out[2]: ...`,
            # a notebook's output prompt pasted with the code, is a NameError.
            target = node.target
            if isinstance(target, ast.Attribute):
                self.check_attribute(target)
                parts = [self.expr(target.value)]
            elif isinstance(target, ast.Subscript):
                parts = [self.expr(target.value), self.expr(target.slice)]
            else:
                return _nothing

            def run_target(f: Frame) -> None:
                for part in parts:
                    part(f)

            return run_target
        value = self.expr(node.value)
        store = self.store(node.target)

        def run(f: Frame) -> None:
            store(f, value(f))

        return run

    def c_AugAssign(self, node: ast.AugAssign) -> Stmt:
        op = node.op
        self.check_operator(op, node)
        target = node.target
        value = self.expr(node.value)
        span = self.span(node)
        if isinstance(target, ast.Name):
            load = self.load_name(target.id, target)
            store = self.store(target)

            def run_name(f: Frame) -> None:
                cur = load(f)
                v = value(f)
                try:
                    new = augmented(op, cur, v)
                except Exception as e:  # noqa: BLE001 - re-raised with its place
                    raise _attach(e, span) from None
                if new is not cur:  # a tensor changed in place is bound already
                    store(f, new)

            return run_name
        if isinstance(target, ast.Attribute):
            self.check_attribute(target)
            owner = self.expr(target.value)
            attr = target.attr

            def run_attr(f: Frame) -> None:
                o = owner(f)
                rt = f.rt
                if attr == "data" and isinstance(o, Tensor):
                    # `W.data -= lr * W.grad`: in place on the data, outside the graph.
                    cur: Any = data_alias(o)
                else:
                    cur = rt.attribute(o, attr)
                v = value(f)
                try:
                    new = augmented(op, cur, v)
                except Exception as e:  # noqa: BLE001 - re-raised with its place
                    raise _attach(e, span) from None
                if new is cur and isinstance(cur, Tensor):
                    return  # changed in place: it is the attribute already
                rt.set_attribute(o, attr, new)

            return run_attr
        if isinstance(target, ast.Subscript):
            owner = self.expr(target.value)
            key = self.strict_key(target.slice)
            rebind = self.store(target.value) if isinstance(target.value, ast.Name) else None

            def run_item(f: Frame) -> None:
                o = owner(f)
                k = key(f)
                rt = f.rt
                cur = rt.getitem(o, k)
                v = value(f)
                try:
                    # `y[i] += v` is Python's `t = y[i]; t += v; y[i] = t`: a view of y changed
                    # in place, then assigned back (PyTorch counts two versions of y).
                    new = augmented(op, cur, v)
                except Exception as e:  # noqa: BLE001 - re-raised with its place
                    raise _attach(e, span) from None
                rt.setitem(o, k, new, target, None if rebind is None else _bind(rebind, f))

            return run_item
        raise self.refuse(target, "this augmented assignment target is not supported")

    def check_operator(self, op: ast.AST, node: ast.AST) -> None:
        r = SYNTAX.get(type(op))
        if r is None or r.refused:
            raise self.refuse(op, hint=rule(type(op)).hint).with_span(self.span(node))

    # -- stores ------------------------------------------------------------------------------
    def store(self, target: ast.AST) -> Store:
        if isinstance(target, ast.Name):
            return self.store_name(target.id, target)
        if isinstance(target, (ast.Tuple, ast.List)):
            return self.store_unpack(target)
        if isinstance(target, ast.Attribute):
            self.check_attribute(target)
            owner = self.expr(target.value)
            attr = target.attr
            span = self.span(target)

            def store_attr(f: Frame, v: Any) -> None:
                o = owner(f)
                try:
                    f.rt.set_attribute(o, attr, v)
                except Exception as e:  # noqa: BLE001 - re-raised with its place
                    raise _attach(e, span) from None

            return store_attr
        if isinstance(target, ast.Subscript):
            owner = self.expr(target.value)
            key = self.strict_key(target.slice)
            rebind = self.store(target.value) if isinstance(target.value, ast.Name) else None
            span = self.span(target)

            def store_item(f: Frame, v: Any) -> None:
                o = owner(f)
                k = key(f)
                try:
                    f.rt.setitem(o, k, v, target, None if rebind is None else _bind(rebind, f))
                except Exception as e:  # noqa: BLE001 - re-raised with its place
                    raise _attach(e, span) from None

            return store_item
        if isinstance(target, ast.Starred):
            raise self.refuse(target, "starred assignment target must be in a list or tuple")
        raise GradcliError("cannot assign to this expression", span=self.span(target)).mirror(None)

    def name_home(self, name: str) -> Callable[[Frame], dict]:
        """The variables `name` is bound in, in the scope being compiled: the frame's own,
        the module's for a `global` name, the binding frame's for a `nonlocal` one."""
        if self.scope.kind != "module" and name in self.scope.globals_:
            return lambda f: f.rt.globals
        if name in self.scope.nonlocals:
            up = self.scope.resolve(name)[1]

            def binding(f: Frame) -> dict:
                frame = f
                for _ in range(up):
                    frame = frame.up  # type: ignore[assignment]
                return frame.vars

            return binding
        return lambda f: f.vars

    def del_declared(self, name: str, span: Any) -> Stmt:
        """`del x` of a `global` / `nonlocal` name: from the module's variables / the frame
        that binds it."""
        is_global = name in self.scope.globals_
        home = self.name_home(name)

        def del_name(f: Frame) -> None:
            where = home(f)
            if name not in where:
                if is_global:
                    raise GradcliError(f"name '{name}' is not defined", span=span).mirror(
                        "NameError"
                    )
                raise GradcliError(
                    f"cannot access free variable '{name}' where it is not associated with a "
                    "value in enclosing scope",
                    span=span,
                ).mirror("NameError")
            del where[name]

        return del_name

    def store_name(self, name: str, node: ast.AST) -> Store:
        if self.scope.kind == "module":

            def store_global(f: Frame, v: Any) -> None:
                if isinstance(v, Tensor):
                    v = f.rt.record(name, v, node)
                f.vars[name] = v

            return store_global
        if name in self.scope.globals_:  # `global name` in this function

            def store_declared_global(f: Frame, v: Any) -> None:
                if isinstance(v, Tensor):
                    v = f.rt.record(name, v, node)
                home = f.rt.globals
                if _GradMode.repeats:  # (a vmapped function's `global n; n += 1`)
                    from .pyobjects import repeated_store

                    repeated_store(home, name, home.get(name), v, f"the global name '{name}'")
                home[name] = v

            return store_declared_global
        if name in self.scope.nonlocals:  # `nonlocal name`: the frame that binds it
            up = self.scope.resolve(name)[1]

            def store_nonlocal(f: Frame, v: Any) -> None:
                frame = f
                for _ in range(up):
                    frame = frame.up  # type: ignore[assignment]
                home = frame.vars
                if _GradMode.repeats:
                    from .pyobjects import repeated_store

                    repeated_store(home, name, home.get(name), v, f"the nonlocal name '{name}'")
                home[name] = v

            return store_nonlocal

        def store_local(f: Frame, v: Any) -> None:
            f.vars[name] = v

        return store_local

    def store_unpack(self, target: ast.Tuple | ast.List) -> Store:
        elts = target.elts
        starred = [i for i, e in enumerate(elts) if isinstance(e, ast.Starred)]
        if len(starred) > 1:
            raise GradcliError(
                "multiple starred expressions in assignment", span=self.span(target)
            ).mirror(None)
        stores = [self.store(e.value if isinstance(e, ast.Starred) else e) for e in elts]
        n = len(elts)
        star = starred[0] if starred else None
        span = self.span(target)

        def store(f: Frame, v: Any) -> None:
            items = list(v) if isinstance(v, (list, tuple)) else _unpack_items(v, span)
            if star is None:
                if len(items) != n:
                    raise _unpack_error(len(items), n, span)
                for s, item in zip(stores, items):
                    s(f, item)
                return
            after = n - star - 1
            if len(items) < n - 1:
                raise GradcliError(
                    f"not enough values to unpack (expected at least {n - 1}, got {len(items)})",
                    span=span,
                ).mirror("ValueError")
            for s, item in zip(stores[:star], items[:star]):
                s(f, item)
            stores[star](f, items[star : len(items) - after])
            for s, item in zip(stores[star + 1 :], items[len(items) - after :]):
                s(f, item)

        return store

    # -- loops -----------------------------------------------------------------------------------
    def loop_body(self, body: list[ast.stmt]) -> Stmt:
        saved = self.in_loop
        self.in_loop = True
        try:
            return self.block(body)
        finally:
            self.in_loop = saved

    def c_For(self, node: ast.For) -> Stmt:
        items_of = self.expr(node.iter)
        target = self.store(node.target)
        body = self.loop_body(node.body)
        orelse = self.block(node.orelse) if node.orelse else None
        iter_span = self.span(node.iter)

        def run(f: Frame) -> Any:
            rt = f.rt
            cap = limits.LOOP_ITERATIONS.value
            for item in loop_items(items_of(f), iter_span):
                rt.iterations += 1
                if rt.iterations > cap:
                    limits.LOOP_ITERATIONS.check(rt.iterations, "the number of loop iterations")
                target(f, item)
                r = body(f)
                if r is not None:
                    if r is BREAK:
                        return None
                    if r is CONTINUE:
                        continue
                    return r
            if orelse is not None:
                return orelse(f)
            return None

        return run

    def c_While(self, node: ast.While) -> Stmt:
        test = self.expr(node.test)
        body = self.loop_body(node.body)
        orelse = self.block(node.orelse) if node.orelse else None
        tick = limits.BUDGET.tick

        def run(f: Frame) -> Any:
            rt = f.rt
            cap = limits.LOOP_ITERATIONS.value
            while truth(test(f)):
                rt.iterations += 1
                if rt.iterations > cap:
                    limits.LOOP_ITERATIONS.check(rt.iterations, "the number of loop iterations")
                tick()
                r = body(f)
                if r is not None:
                    if r is BREAK:
                        return None
                    if r is CONTINUE:
                        continue
                    return r
            if orelse is not None:
                return orelse(f)
            return None

        return run

    def c_If(self, node: ast.If) -> Stmt:
        test = self.expr(node.test)
        body = self.block(node.body)
        orelse = self.block(node.orelse)
        span = self.span(node.test)

        def run(f: Frame) -> Any:
            v = test(f)
            if type(v) is bool:
                return body(f) if v else orelse(f)
            try:
                t = truth(v)
            except GradcliError as e:
                raise e.with_span(span) from None
            return body(f) if t else orelse(f)

        return run

    def c_Match(self, node: ast.Match) -> Stmt:
        """`match subject:` with `case` patterns that compare or bind: literals and dotted
        names (`==`), `None` / `True` / `False` (`is`), captures, `_`, `|`, `as`, sequences
        (`[a, *rest]`, not strings) and builtin-class checks (`int(n)`), each case with its
        optional `if` guard. The subject is evaluated once; the first case whose pattern
        matches and whose guard holds runs. Mapping patterns and a class's attributes are
        refused before anything runs."""
        subject, cases = self.match_parts(node, self.block)

        def run(f: Frame) -> Any:
            body = _chosen_case(cases, f, subject(f))
            return None if body is None else body(f)

        return run

    def g_Match(self, node: ast.Match) -> Callable[[Frame], Any]:
        """`match` in a generator function, a case's body suspending at its `yield`s."""
        subject, cases = self.match_parts(node, self.gen_block)

        def run(f: Frame) -> Any:
            body = _chosen_case(cases, f, subject(f))
            if body is None:
                return None
            return (yield from body(f))

        return run

    def match_parts(self, node: ast.Match, block: Callable[[list], Any]) -> tuple[Expr, list]:
        subject = self.expr(node.subject)
        last = len(node.cases) - 1
        cases = []
        for i, case in enumerate(node.cases):
            if i < last and case.guard is None:
                self.check_reachable(case.pattern)
            cases.append(
                (
                    self.pattern(case.pattern),
                    self.expr(case.guard) if case.guard is not None else None,
                    block(case.body),
                    self.span(case.guard) if case.guard is not None else None,
                )
            )
        return subject, cases

    def pattern(self, p: ast.pattern) -> Callable[[Frame, Any], bool]:
        """A `case` pattern: whether the subject matches it (binding its captures)."""
        self.depth += 1
        try:
            if self.depth > self.depth_limit:
                raise LimitError(
                    f"the program is nested too deeply (over {self.depth_limit} levels)",
                    span=self.span(p),
                    expected=f"at most {self.depth_limit} levels ({limits.NESTING.name})",
                )
            return self.one_pattern(p)
        finally:
            self.depth -= 1

    def one_pattern(self, p: ast.pattern) -> Callable[[Frame, Any], bool]:
        span = self.span(p)
        if isinstance(p, ast.MatchValue):
            value = self.expr(p.value)
            eq = ast.Eq()

            def match_value(f: Frame, v: Any) -> bool:
                try:
                    return truth(compare(eq, v, value(f)))
                except Exception as e:  # noqa: BLE001 - re-raised with its place
                    raise _attach(e, span) from None

            return match_value
        if isinstance(p, ast.MatchSingleton):
            const = p.value
            return lambda f, v: v is const
        if isinstance(p, ast.MatchAs):
            inner = self.pattern(p.pattern) if p.pattern is not None else None
            store = self.store_name(p.name, p) if p.name is not None else None
            if store is None:
                return inner or (lambda f, v: True)

            def match_as(f: Frame, v: Any) -> bool:
                if inner is not None and not inner(f, v):
                    return False
                store(f, v)
                return True

            return match_as
        if isinstance(p, ast.MatchOr):
            names = [_pattern_names(a) for a in p.patterns]
            if any(n != names[0] for n in names):
                raise self.syntax_error("alternative patterns bind different names", p)
            for a in p.patterns[:-1]:
                self.check_reachable(a)
            alternatives = tuple(self.pattern(a) for a in p.patterns)
            return lambda f, v: any(a(f, v) for a in alternatives)
        if isinstance(p, ast.MatchSequence):
            return self.sequence_pattern(p)
        if isinstance(p, ast.MatchMapping):
            return self.mapping_pattern(p)
        if isinstance(p, ast.MatchClass) and not p.kwd_patterns and len(p.patterns) <= 1:
            cls = self.expr(p.cls)
            inner = self.pattern(p.patterns[0]) if p.patterns else None
            shown = ast.unparse(p.cls)

            def match_class(f: Frame, v: Any) -> bool:
                from .builtins import _isinstance

                c = cls(f)
                try:
                    ok = _isinstance(v, c)
                except Exception as e:  # noqa: BLE001 - re-raised with its place
                    raise _attach(e, span) from None
                if not ok or inner is None:
                    return ok
                if c not in _SELF_MATCHING:
                    raise NotSupported(
                        f"a positional pattern in `case {shown}(...)` is not supported in "
                        "gradcli programs",
                        span=span,
                        hint=f"match `case {shown}() as name:` and test the name in an `if`",
                    )
                return inner(f, v)

            return match_class
        raise self.refuse(
            p,
            "this `case` pattern is not supported in gradcli programs",
            found=ast.unparse(p),
            expected="a value, `None`, a name, `_`, `|`, `as`, a sequence `[a, *rest]`, "
            "a mapping `{'k': v, **rest}` or a class check `int()`",
            hint="take the subject apart before the `match`, or use `if` / `elif`",
        )

    def mapping_pattern(self, p: ast.MatchMapping) -> Callable[[Frame, Any], bool]:
        """`case {"lr": lr, **rest}:`: a dict (or its kin) holding every key, each value
        matched; `**rest` binds a new dict of the other items."""
        seen = set()
        for k in p.keys:
            if isinstance(k, ast.Constant):
                if k.value in seen:
                    raise self.syntax_error(
                        f"mapping pattern checks duplicate key ({k.value!r})", p
                    )
                seen.add(k.value)
        keys = tuple(self.expr(k) for k in p.keys)
        values = tuple(self.pattern(q) for q in p.patterns)
        store = self.store_name(p.rest, p) if p.rest is not None else None
        span = self.span(p)

        def match_mapping(f: Frame, v: Any) -> bool:
            if not isinstance(v, dict) or len(v) < len(keys):
                return False
            ks = [k(f) for k in keys]
            try:
                if any(k not in v for k in ks):
                    return False
                if not all(m(f, v[k]) for m, k in zip(values, ks)):
                    return False
            except TypeError as e:  # an unhashable key: Python's TypeError
                raise _attach(e, span) from None
            if store is not None:
                store(f, {k: x for k, x in v.items() if k not in ks})
            return True

        return match_mapping

    def sequence_pattern(self, p: ast.MatchSequence) -> Callable[[Frame, Any], bool]:
        """`case [a, b]:` / `case (first, *rest):`: a list, tuple or range (not a string) of
        the length the pattern allows, its items matched in order."""
        stars = [i for i, q in enumerate(p.patterns) if isinstance(q, ast.MatchStar)]
        if len(stars) > 1:
            raise self.syntax_error("multiple starred names in sequence pattern", p)
        star = stars[0] if stars else None
        items = [self.pattern(q) for q in p.patterns if not isinstance(q, ast.MatchStar)]
        n = len(items)
        store = None
        if star is not None and p.patterns[star].name is not None:
            store = self.store_name(p.patterns[star].name, p.patterns[star])

        def match_sequence(f: Frame, v: Any) -> bool:
            if isinstance(v, collections.deque):  # (a Sequence without slices)
                v = list(v)
            elif not isinstance(v, (list, tuple, range)):
                return False
            if (len(v) != n) if star is None else (len(v) < n):
                return False
            if star is None:
                return all(m(f, x) for m, x in zip(items, v))
            tail = len(v) - (n - star)
            head_ok = all(m(f, x) for m, x in zip(items[:star], v[:star]))
            if not head_ok or not all(m(f, x) for m, x in zip(items[star:], v[tail:])):
                return False
            if store is not None:
                limits.LIST_ITEMS.check(tail - star, "the items a `*name` pattern collects")
                store(f, list(v[star:tail]))
            return True

        return match_sequence

    def check_reachable(self, p: ast.pattern) -> None:
        """Python's SyntaxError for an irrefutable pattern before other patterns."""
        if isinstance(p, ast.MatchOr):
            for a in p.patterns:
                self.check_reachable(a)
        elif isinstance(p, ast.MatchAs) and p.pattern is None:
            what = "wildcard" if p.name is None else f"name capture {p.name!r}"
            raise self.syntax_error(f"{what} makes remaining patterns unreachable", p)

    # -- with, try, raise, assert ---------------------------------------------------------------
    def with_items(self, node: ast.With) -> Callable[[Frame, list], None]:
        """Enter a `with` statement's context managers, appending each to `entered`."""
        items = []
        for item in node.items:
            store = self.store(item.optional_vars) if item.optional_vars is not None else None
            items.append((self.expr(item.context_expr), store, self.span(item.context_expr)))

        def enter(f: Frame, entered: list) -> None:
            for ev, store, span in items:
                cm = ev(f)
                if isinstance(cm, GradModeClass):
                    raise NotSupported(
                        f"`with torch.{cm.name}:` needs the call: `with torch.{cm.name}():`",
                        span=span,
                    )
                if not isinstance(cm, (GradMode, Progress, CatchWarnings)) and not getattr(
                    type(cm), "program_context", False
                ):
                    raise NotSupported(
                        "`with` is only supported for torch.no_grad(), "
                        "torch.enable_grad(), torch.set_grad_enabled(mode), "
                        "torch.inference_mode(), torch.autograd.forward_ad.dual_level(), "
                        "torch.autograd.graph.saved_tensors_hooks(pack, unpack) and its kin, "
                        "torch.random.fork_rng(), warnings.catch_warnings(), "
                        "torch.nn.utils.parametrize.cached(), torch.device('cpu') and tqdm(...)",
                        span=span,
                        found=type(cm).__name__,
                        hint="gradcli programs do not open files or other resources",
                    )
                cm.enter()
                entered.append(cm)
                if store is not None:
                    store(f, cm.as_value)

        return enter

    def c_With(self, node: ast.With) -> Stmt:
        enter = self.with_items(node)
        body = self.block(node.body)

        def run(f: Frame) -> Any:
            entered: list[GradMode] = []
            try:
                enter(f, entered)
                r = body(f)
            except GradcliError as e:
                if _leave_raising(entered, e if X.catchable(e) else None):
                    return None  # (assertRaises, subTest: the error swallowed)
                raise
            except BaseException:
                _leave_raising(entered, None)
                raise
            for cm in reversed(entered):
                cm.exit()
            return r

        return run

    def c_Try(self, node: ast.Try) -> Stmt:
        body = self.block(node.body)
        handlers = []
        for h in node.handlers:
            kind = self.expr(h.type) if h.type is not None else None
            store = self.name_home(h.name) if h.name else None
            handlers.append((kind, h.name, store, self.block(h.body), self.span(h)))
        orelse = self.block(node.orelse) if node.orelse else None
        final = self.block(node.finalbody) if node.finalbody else None
        module_level = self.scope.kind == "module"

        def handle(f: Frame, e: GradcliError) -> Any:
            """The matching handler's signal, or `e` raised again."""
            if not X.catchable(e):
                raise e
            for kind, name, store, hbody, span in handlers:
                t = None if kind is None else kind(f)
                try:
                    match = X.matches(e, t)
                except GradcliError as err:
                    raise err.with_span(span) from None
                if not match:
                    continue
                rt = f.rt
                if store is not None:
                    store(f)[name] = X.caught_value(e)
                rt.handling.append(e)
                try:
                    return hbody(f)
                finally:
                    rt.handling.pop()
                    if store is not None:
                        # Python unbinds the name at the end of the handler.
                        store(f).pop(name, None)
                        if module_level:
                            f.rt.tensors.pop(name, None)
            raise e

        def body_and_handlers(f: Frame) -> Any:
            try:
                r = body(f)
            except GradcliError as e:
                return handle(f, e)
            if orelse is not None:
                return orelse(f)
            return r

        if final is None:
            return body_and_handlers

        def run(f: Frame) -> Any:
            try:
                r = body_and_handlers(f)
            except GradcliError as e:
                # A limit (or what gradcli does not support) ends the program: no `finally`
                # runs after it, so that nothing runs past a limit.
                if not X.catchable(e):
                    raise
                r2 = final(f)
                if r2 is not None:
                    return r2  # Python's semantics: a `return` in `finally` wins
                raise
            except ProgramExit:
                final(f)  # exit() in the body: the `finally` runs, as Python's does
                raise
            r2 = final(f)
            return r2 if r2 is not None else r

        return run

    def c_Raise(self, node: ast.Raise) -> Stmt:
        if node.exc is None:

            def reraise(f: Frame) -> Any:
                if not f.rt.handling:
                    raise GradcliError("No active exception to reraise").mirror("RuntimeError")
                raise f.rt.handling[-1]

            return reraise
        exc = self.expr(node.exc)
        # `raise X from Y`: Y (an exception, its class, or None) is evaluated after X, as
        # Python does; the exception raised is X's. gradcli shows no chained tracebacks, so the
        # cause only joins the message of an uncaught error as a note.
        cause = self.expr(node.cause) if node.cause is not None else None

        def run(f: Frame) -> Any:
            v = as_exception(f.rt, exc(f))
            if isinstance(v, X.ExcClass):
                v = v()
            if not isinstance(v, X.ExcValue):
                raise GradcliError("exceptions must derive from BaseException").mirror("TypeError")
            note = None
            if cause is not None:
                c = as_exception(f.rt, cause(f))
                if isinstance(c, X.ExcClass):
                    c = c()
                if c is not None and not isinstance(c, X.ExcValue):
                    raise GradcliError("exception causes must derive from BaseException").mirror(
                        "TypeError"
                    )
                if c is not None:
                    text = c.text()
                    note = f"the direct cause: {c.name()}" + (f": {text}" if text else "")
            if v.error is not None and note is None:
                raise v.error
            err = X.ProgramError(v) if v.error is None else v.error
            if note is not None and err.hint is None:
                err.hint = note
            raise err

        return run

    def c_Assert(self, node: ast.Assert) -> Stmt:
        test = self.expr(node.test)
        msg = self.expr(node.msg) if node.msg is not None else None

        def run(f: Frame) -> None:
            if not truth(test(f)):
                args = () if msg is None else (msg(f),)
                raise X.ProgramError(X.CLASSES["AssertionError"](*args))

        return run

    # -- generator functions -------------------------------------------------------------------
    # The body of a generator function compiles to Python generators: a statement that holds a
    # `yield` is a generator function of the frame (`yield from` its sub-blocks, `yield` where
    # the program yields) returning the control signal; the statements without one are the
    # ordinary compiled statements, run as they are. Python suspends and resumes the whole
    # chain (see `values.UserGenerator`).

    def gen_block(self, stmts: list[ast.stmt]) -> Callable[[Frame], Any]:
        parts = tuple(
            (True, self.gen_stmt(s)) if _has_yield([s]) else (False, self.stmt(s)) for s in stmts
        )

        def run(f: Frame) -> Any:
            for suspends, s in parts:
                r = (yield from s(f)) if suspends else s(f)
                if r is not None:
                    return r
            return None

        return run

    def gen_loop_body(self, body: list[ast.stmt]) -> Callable[[Frame], Any]:
        saved = self.in_loop
        self.in_loop = True
        try:
            return self.gen_block(body)
        finally:
            self.in_loop = saved

    def gen_stmt(self, node: ast.stmt) -> Callable[[Frame], Any]:
        handler = {
            ast.Expr: self.g_Expr,
            ast.For: self.g_For,
            ast.While: self.g_While,
            ast.If: self.g_If,
            ast.Match: self.g_Match,
            ast.With: self.g_With,
            ast.Try: self.g_Try,
        }.get(type(node))
        if handler is None:
            raise self.yield_refusal(_first_yield(node) or node)
        self.depth += 1
        if self.depth > self.depth_limit:
            raise LimitError(
                f"the program is nested too deeply (over {self.depth_limit} levels)",
                span=self.span(node),
                expected=f"at most {self.depth_limit} levels ({limits.NESTING.name})",
            )
        try:
            return self.gen_wrap(handler(node), node)
        finally:
            self.depth -= 1

    def gen_wrap(self, fn: Callable[[Frame], Any], node: ast.AST) -> Callable[[Frame], Any]:
        """`wrap` for a statement that suspends: the same tick, marks and error places."""
        span = self.span(node)
        tick = limits.BUDGET.tick

        def run(f: Frame) -> Any:
            try:
                tick()
                rt = f.rt
                rt._stmt = node
                seq, marks = SEQ[0], rt.marks
                if marks and marks[-1][0] == seq:
                    marks[-1] = (seq, node)
                else:
                    marks.append((seq, node))
                return (yield from fn(f))
            except GradcliError as e:
                if e.span is None:
                    e.span = span
                raise
            except RecursionError:
                raise LimitError(
                    "the program recursed too deeply",
                    span=span,
                    hint="user functions may not call themselves without bound",
                ) from None
            except MemoryError:
                raise LimitError(
                    "out of memory", span=span, hint="the tensors are too large for this machine"
                ) from None
            except CONVERTED as e:
                if not is_argument_error(e):
                    raise
                raise user_error(e, span) from e

        return run

    def yield_refusal(self, node: ast.AST) -> GradcliError:
        if not self.in_function:
            return GradcliError(
                "'yield' outside function", span=self.span(node), hint="`yield` belongs in a `def`"
            ).mirror(None)
        return NotSupported(
            "`yield` is supported as a statement of its own in a generator function "
            "(`yield value`, `yield from items`), not inside an expression",
            span=self.span(node),
            found="`yield` used as a value" if self.scope.kind == "function" else None,
            hint="yield the value on a line of its own; gradcli's generators do not take "
            ".send() values",
        )

    def c_Yield(self, node: ast.Yield) -> Expr:
        raise self.yield_refusal(node)

    def c_YieldFrom(self, node: ast.YieldFrom) -> Expr:
        raise self.yield_refusal(node)

    def g_Expr(self, node: ast.Expr) -> Callable[[Frame], Any]:
        v = node.value
        if isinstance(v, ast.Yield):
            if v.value is None:

                def run_none(f: Frame) -> Any:
                    yield None
                    return None

                return run_none
            value = self.expr(v.value)

            def run(f: Frame) -> Any:
                yield value(f)
                return None

            return run
        if isinstance(v, ast.YieldFrom):
            source = self.expr(v.value)
            span = self.span(v.value)
            tick = limits.BUDGET.tick

            def run_from(f: Frame) -> Any:
                try:
                    items = iterate(source(f), "yield from")
                except GradcliError as e:
                    raise e.with_span(span) from None
                for item in items:
                    tick()
                    yield item
                return None

            return run_from
        raise self.yield_refusal(_first_yield(node) or node)

    def g_For(self, node: ast.For) -> Callable[[Frame], Any]:
        items_of = self.expr(node.iter)
        target = self.store(node.target)
        body = self.gen_loop_body(node.body)
        orelse = self.gen_block(node.orelse) if node.orelse else None
        iter_span = self.span(node.iter)

        def run(f: Frame) -> Any:
            rt = f.rt
            cap = limits.LOOP_ITERATIONS.value
            for item in loop_items(items_of(f), iter_span):
                rt.iterations += 1
                if rt.iterations > cap:
                    limits.LOOP_ITERATIONS.check(rt.iterations, "the number of loop iterations")
                target(f, item)
                r = yield from body(f)
                if r is not None:
                    if r is BREAK:
                        return None
                    if r is CONTINUE:
                        continue
                    return r
            if orelse is not None:
                return (yield from orelse(f))
            return None

        return run

    def g_While(self, node: ast.While) -> Callable[[Frame], Any]:
        test = self.expr(node.test)
        body = self.gen_loop_body(node.body)
        orelse = self.gen_block(node.orelse) if node.orelse else None
        tick = limits.BUDGET.tick

        def run(f: Frame) -> Any:
            rt = f.rt
            cap = limits.LOOP_ITERATIONS.value
            while truth(test(f)):
                rt.iterations += 1
                if rt.iterations > cap:
                    limits.LOOP_ITERATIONS.check(rt.iterations, "the number of loop iterations")
                tick()
                r = yield from body(f)
                if r is not None:
                    if r is BREAK:
                        return None
                    if r is CONTINUE:
                        continue
                    return r
            if orelse is not None:
                return (yield from orelse(f))
            return None

        return run

    def g_If(self, node: ast.If) -> Callable[[Frame], Any]:
        test = self.expr(node.test)
        body = self.gen_block(node.body)
        orelse = self.gen_block(node.orelse)
        span = self.span(node.test)

        def run(f: Frame) -> Any:
            try:
                t = truth(test(f))
            except GradcliError as e:
                raise e.with_span(span) from None
            return (yield from (body(f) if t else orelse(f)))

        return run

    def g_With(self, node: ast.With) -> Callable[[Frame], Any]:
        enter = self.with_items(node)
        body = self.gen_block(node.body)

        def run(f: Frame) -> Any:
            entered: list[GradMode] = []
            try:
                enter(f, entered)
                # Suspended inside the block, the grad mode stays as the block set it (in
                # PyTorch too: it is global state, not the generator's).
                r = yield from body(f)
            except GradcliError as e:
                if _leave_raising(entered, e if X.catchable(e) else None):
                    return None
                raise
            except BaseException:
                _leave_raising(entered, None)
                raise
            for cm in reversed(entered):
                cm.exit()
            return r

        return run

    def g_Try(self, node: ast.Try) -> Callable[[Frame], Any]:
        body = self.gen_block(node.body)
        handlers = []
        for h in node.handlers:
            kind = self.expr(h.type) if h.type is not None else None
            store = self.name_home(h.name) if h.name else None
            handlers.append((kind, h.name, store, self.gen_block(h.body), self.span(h)))
        orelse = self.gen_block(node.orelse) if node.orelse else None
        final = self.gen_block(node.finalbody) if node.finalbody else None

        def handle(f: Frame, e: GradcliError) -> Any:
            if not X.catchable(e):
                raise e
            for kind, name, store, hbody, span in handlers:
                t = None if kind is None else kind(f)
                try:
                    match = X.matches(e, t)
                except GradcliError as err:
                    raise err.with_span(span) from None
                if not match:
                    continue
                rt = f.rt
                if store is not None:
                    store(f)[name] = X.caught_value(e)
                rt.handling.append(e)
                try:
                    return (yield from hbody(f))
                finally:
                    rt.handling.pop()
                    if store is not None:
                        store(f).pop(name, None)
            raise e

        def body_and_handlers(f: Frame) -> Any:
            try:
                r = yield from body(f)
            except GradcliError as e:
                return (yield from handle(f, e))
            if orelse is not None:
                return (yield from orelse(f))
            return r

        if final is None:
            return body_and_handlers

        def run(f: Frame) -> Any:
            try:
                r = yield from body_and_handlers(f)
            except GradcliError as e:
                if not X.catchable(e):
                    raise
                r2 = yield from final(f)
                if r2 is not None:
                    return r2
                raise
            r2 = yield from final(f)
            return r2 if r2 is not None else r

        return run

    # -- functions and classes ---------------------------------------------------------------
    def function_code(
        self, node: ast.FunctionDef | ast.Lambda, name: str, expression: bool
    ) -> FunctionCode:
        a = node.args
        positional = [p.arg for p in a.posonlyargs + a.args]
        code = FunctionCode(
            name,
            node,
            positional,
            [p.arg for p in a.kwonlyargs],
            a.vararg.arg if a.vararg else None,
            a.kwarg.arg if a.kwarg else None,
            expression,
        )
        params = parameter_names(a)
        body_nodes: list[Any] = [node.body] if expression else node.body
        local = set(params) | (walrus_names(body_nodes) if expression else bound_names(body_nodes))
        globals_, nonlocals = (
            (frozenset(), frozenset()) if expression else self.declared(node.body, params, local)
        )
        saved = (self.scope, self.in_loop, self.in_function, self.method)
        self.scope = Scope("function", self.scope, local, globals_, nonlocals)
        self.in_loop = False
        self.in_function = True
        self.method = code if saved[0].kind == "class" else None
        try:
            if not expression and _has_yield(node.body):
                code.generator = True
                code.body = self.gen_block(node.body)
            else:
                code.body = self.expr(node.body) if expression else self.block(node.body)
        finally:
            self.scope, self.in_loop, self.in_function, self.method = saved
        return code

    def defaults(self, a: ast.arguments) -> tuple[list[Expr], list[tuple[str, Expr]]]:
        positional = [self.expr(d) for d in a.defaults]
        kw = [(p.arg, self.expr(d)) for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None]
        return positional, kw

    def make_function(self, code: FunctionCode, a: ast.arguments) -> Expr:
        pos, kw = self.defaults(a)
        # A function defined in a function (or a comprehension, a lambda) closes over the
        # frame it is made in; at module level (and in a class body there) it needs none.
        s = self.scope
        hops = 0  # the class bodies around it: each runs in a frame of its own
        while s.kind == "class":
            s = s.parent  # type: ignore[assignment]
            hops += 1
        closes = s.kind != "module"

        def make(f: Frame) -> UserFunction:
            closure = None
            if closes:
                closure = f
                for _ in range(hops):
                    closure = closure.up  # type: ignore[assignment]
            return UserFunction(
                code,
                tuple(d(f) for d in pos),
                {k: d(f) for k, d in kw},
                closure,
                f.rt,
            )

        return make

    def c_FunctionDef(self, node: ast.FunctionDef) -> Stmt:
        decorators = [self.decorator(d) for d in node.decorator_list]
        # (a private method `__init` is stored as `_Class__init` but named `__init`)
        code = self.function_code(node, getattr(node, "shown_name", node.name), expression=False)
        make = self.make_function(code, node.args)
        store = self.store_name(node.name, node)

        def run(f: Frame) -> None:
            fn: Any = make(f)
            for d in reversed(decorators):
                fn = d(f, fn)
            store(f, fn)

        return run

    def decorator(self, d: ast.expr) -> Callable[[Frame, Any], Any]:
        """`@torch.no_grad()`, `@torch.enable_grad()`, `@torch.inference_mode()` (called or
        not); in a class `@staticmethod`, `@classmethod`, `@property`, `@name.setter` and
        `@once_differentiable`; any other decorator is called on the function, as Python
        does (`@timer` makes `f = timer(f)`): an ordinary call of the program, under its
        limits."""
        shape = d.func if isinstance(d, ast.Call) else d
        last = (
            shape.attr
            if isinstance(shape, ast.Attribute)
            else (shape.id if isinstance(shape, ast.Name) else "")
        )
        in_class = self.scope.kind == "class"
        plain = ("staticmethod", "classmethod", "property", "once_differentiable", "abstractmethod")
        setter = (
            in_class
            and last == "setter"
            and isinstance(d, ast.Attribute)
            and isinstance(d.value, ast.Name)
        )
        # Any other decorator is a call of what it names on the function (`f = deco(f)`), as
        # Python applies it: a function of the program, functools.partial(...), a class...
        ok = setter or last not in plain or not isinstance(d, ast.Call)
        if not ok or (last in plain[:3] and not in_class):
            raise NotSupported(
                f"@{last} is not supported here",
                span=self.span(d),
                found=f"@{ast.unparse(d)[:40]}",
                expected="@staticmethod, @classmethod, @property (and @name.setter) in a class "
                "body, without arguments; @once_differentiable in a torch.autograd.Function",
                hint="define a plain function" if not in_class else "define a plain method",
            )
        if last == "abstractmethod":  # (abc's: the method as it is; see `_is_abc`)
            return lambda f, fn: fn
        if last == "staticmethod":
            return lambda f, fn: _static(fn)
        if last == "classmethod":
            return lambda f, fn: _wrapped(fn, ClassMethod, "@classmethod")
        if last == "property" and not setter:
            return lambda f, fn: _wrapped(fn, Property, "@property")
        value = self.expr(d.value if setter else d)  # type: ignore[attr-defined]
        span = self.span(d)

        def apply(f: Frame, fn: Any) -> Any:
            try:
                return applied(f, value(f), fn)
            except Exception as e:  # noqa: BLE001 - re-raised at the decorator (as Python)
                raise _attach(e, span) from None

        def applied(f: Frame, dec: Any, fn: Any) -> Any:
            if setter:
                if not isinstance(dec, Property) or not isinstance(fn, UserFunction):
                    raise NotSupported(
                        "`@name.setter` is supported after `@property` of the same name",
                        span=span,
                    )
                return dec.setter(fn)
            if isinstance(dec, (GradModeClass, GradMode)):
                return (dec if isinstance(dec, GradMode) else dec()).decorator(fn)
            if dec is ONCE_DIFFERENTIABLE:
                return dec.fn(fn)
            if isinstance(dec, Builtin) and dec.name in PASS_THROUGH_DECORATORS:
                return dec(fn)
            return f.rt.call(dec, [fn], {}, call_node)

        # The call `deco(f)` the decorator makes, for the name of the callee in messages.
        call_node = ast.copy_location(ast.Call(func=d, args=[], keywords=[]), d)
        return apply

    def c_Lambda(self, node: ast.Lambda) -> Expr:
        code = self.function_code(node, "<lambda>", expression=True)
        return self.make_function(code, node.args)

    def c_ClassDef(self, node: ast.ClassDef) -> Stmt:
        if node.keywords:
            raise self.refuse(
                node.keywords[0] if hasattr(node.keywords[0], "lineno") else node,
                "class keywords (metaclass=...) are not supported",
                hint="define a plain class (class A:), or derive from torch.nn.Module or "
                "torch.autograd.Function",
            )
        # `@dataclass` / `@dataclasses.dataclass(frozen=True)`: evaluated when the class
        # statement runs (it must be dataclasses' decorator), applied to the class made.
        if len(node.decorator_list) > 1:
            raise NotSupported(
                "several class decorators are not supported",
                span=self.span(node.decorator_list[1]),
                hint="keep one: @dataclass",
            )
        class_decorators = [(self.expr(d), self.span(d)) for d in node.decorator_list]
        # The annotated names of the body, in order (a dataclass's or NamedTuple's fields).
        annotations = tuple(
            (stmt.target.id, ast.unparse(stmt.annotation))
            for stmt in node.body
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
        )
        # `abc.ABC` among the bases (`class Objective(nn.Module, ABC)`) marks a class abstract
        # in Python and adds nothing else a correct program uses: left out (gradcli does not
        # refuse making an object of a class whose abstract methods are not all defined)
        bases = [b for b in node.bases if not _is_abc(b)]
        if len(bases) != len(node.bases):
            node = _copy.copy(node)  # (a shallow copy: the same positions and body)
            node.bases = bases
        # Several bases: program classes (plain ones as mixins) and at most one of torch's
        # (nn.Module), checked when the class statement runs; `object` is left out.
        base_exprs: list[tuple[Expr, Any]] = []
        for b in node.bases:
            if isinstance(b, ast.Starred):
                raise self.refuse(b, "`*` in a class's bases is not supported")
            plain_object = isinstance(b, ast.Name) and b.id == "object"
            if not (plain_object and self.scope.resolve("object")[0] == BUILTIN):
                base_exprs.append((self.expr(b), self.span(b)))
        saved = self.scope
        self.scope = Scope("class", saved, bound_names(node.body))
        body: list[Stmt] = []
        codes: list[FunctionCode] = []
        dunders: list[tuple[str, Any]] = []  # (name, span) of dunder methods but __init__
        attr_spans: list[Any] = []  # of the class attributes' assignments
        try:
            for stmt in node.body:
                if isinstance(stmt, ast.FunctionDef):
                    self.check_method_name(stmt)
                    if (
                        stmt.name != "__init__"
                        and stmt.name.startswith("__")
                        and not own_dunder(stmt.name)
                    ):
                        dunders.append((stmt.name, self.span(stmt)))
                    decorators = [self.decorator(d) for d in stmt.decorator_list]
                    shown = getattr(stmt, "shown_name", stmt.name)  # (`__init` of `_C__init`)
                    code = self.function_code(stmt, shown, expression=False)
                    codes.append(code)
                    make = _decorated(self.make_function(code, stmt.args), decorators)
                    body.append(self.wrap(_storing(self.store_name(stmt.name, stmt), make), stmt))
                elif isinstance(stmt, ast.Pass) or (
                    isinstance(stmt, ast.Expr)
                    and isinstance(stmt.value, ast.Constant)
                    and isinstance(stmt.value.value, str)
                ):
                    continue
                elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and _class_attribute(stmt):
                    for t in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                        self.check_class_attribute(t)
                    if isinstance(stmt, ast.AnnAssign) and stmt.value is None:
                        continue  # `x: int`: an annotation only, as in Python
                    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                    if not (
                        len(targets) == 1
                        and isinstance(targets[0], ast.Name)
                        and targets[0].id in FUNCTION_FLAGS
                    ):
                        # (an autograd.Function's class attributes are PyTorch's flags)
                        attr_spans.append(self.span(stmt))
                    body.append(self.stmt(stmt))
                elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
                    # As in Python, an import in a class body binds class attributes (the
                    # methods do not see them as bare names: class scope is not enclosing).
                    for alias in stmt.names:
                        bound = alias.asname or alias.name.split(".")[0]
                        self.check_class_attribute(ast.copy_location(ast.Name(id=bound), stmt))
                    attr_spans.append(self.span(stmt))
                    body.append(self.stmt(stmt))
                else:
                    raise GradcliError(
                        "a class body holds its methods, class attributes (name = value), "
                        "imports and a docstring",
                        span=self.span(stmt),
                        hint="set attributes in __init__: self.name = value",
                    ).mirror(None)
        finally:
            self.scope = saved
        store = self.store_name(node.name, node)
        name = node.name
        span = self.span(node)
        base_span = self.span(node.bases[0]) if node.bases else span
        doc = _docstring(node)
        # The frame the class statement runs in is the closure of its methods (one frame up
        # from the class body's own frame).

        def run(f: Frame) -> None:
            raw = [(e(f), at) for e, at in base_exprs]
            # `class Cell(torch.jit.ScriptModule)`: an nn.Module subclass whose submodules are
            # made TorchScript's after its __init__ (`ModuleClass.scripted`, `lang.jit`)
            scripted = any(_script_module_base(v) for v, _ in raw)
            evaluated = [
                (surface_nn.Module if _script_module_base(v) else _class_of_constructor(v), at)
                for v, at in raw
            ]
            b = _main_base(evaluated)
            cf = Frame({}, f, f.rt)
            for s in body:
                s(cf)
            made = cf.vars
            if b is None or isinstance(b, (PlainClass, X.ExcClass)) or b is NAMED_TUPLE:
                for dunder, dunder_span in dunders:
                    if b is NAMED_TUPLE and dunder in ("__setattr__", "__getattr__"):
                        raise NotSupported(
                            f"method `{dunder}` is not supported in a NamedTuple class",
                            span=dunder_span,
                            hint="a named tuple's fields are read by name; define a plain "
                            "method for anything more",
                        )
                    if dunder not in PLAIN_DUNDERS:  # __setstate__: an optimizer's only
                        raise NotSupported(
                            f"method `{dunder}` is only supported in an Optimizer subclass",
                            span=dunder_span,
                            hint="define a plain method and call it by its name",
                        )
            if b is None or isinstance(b, (PlainClass, X.ExcClass)):
                # (an exception class too: `class ShapeError(ValueError):`, `classes`)
                cls: Any = PlainClass(name, made, tuple(v for v, _ in evaluated), annotations)
            elif b is NAMED_TUPLE and len(evaluated) == 1:
                cls = _named_tuple_class(name, made, annotations, span)
            elif (b is ENUM_BASE or b is INT_ENUM_BASE) and len(evaluated) == 1:
                if dunders or "__init__" in made:
                    raise NotSupported(
                        "dunder methods (__init__, __str__...) in an Enum class are not supported",
                        span=span,
                        hint="keep the members (RED = 1) and plain methods",
                    )
                cls = enum_class(name, made, span, int_kind=b is INT_ENUM_BASE)
            elif getattr(b, "PROGRAM_BASE", None) is not None or isinstance(b, OptimClass):
                # `class MySGD(torch.optim.Optimizer)`, `class Warmup(LRScheduler)`:
                # __setstate__ is the one dunder method PyTorch calls (an optimizer's
                # load_state_dict); the others are refused
                base = b if isinstance(b, type) else b.base
                base_name = base.__name__
                pruning = base.PROGRAM_BASE == "pruning"
                for dunder, dunder_span in dunders:
                    if dunder != "__setstate__" or base_name != "Optimizer":
                        raise NotSupported(
                            f"method `{dunder}` is not supported in a subclass of {base_name}",
                            span=dunder_span,
                            hint="a pruning method defines __init__, compute_mask and plain methods"
                            if pruning
                            else "a Distribution subclass defines __init__, rsample, log_prob... "
                            "and plain methods"
                            if base.PROGRAM_BASE == "distribution"
                            else "an Optimizer subclass defines __init__, step and plain "
                            "methods (and __setstate__)",
                        )
                if pruning:
                    if base_name != "BasePruningMethod":
                        raise NotSupported(
                            f"a subclass of prune.{base_name} is not supported by gradcli",
                            span=base_span,
                            hint="derive from prune.BasePruningMethod and write its "
                            "compute_mask(self, t, default_mask)",
                        )
                    from . import pruning as _pruning  # noqa: F401  (its instances)
                elif base.PROGRAM_BASE == "distribution":
                    from . import prog_distributions  # noqa: F401  (its instances)
                else:
                    from . import optimizers  # noqa: F401  (the instances of such a class)

                cls = OptimClass(name, made, tuple(v for v, _ in evaluated), base)
            else:
                # a module may define `__call__` (it is then called through it, as Python
                # does: `classes.ModuleInstance.__call__`) and the container protocol and
                # its repr (`MODULE_DUNDERS`); the other dunders are refused
                is_function = b is FUNCTION_BASE or isinstance(b, FunctionClass)
                is_module = (
                    b is surface_nn.Module or isinstance(b, ModuleClass) or library_module(b)
                )
                # (another base, `class Pair(list):`, is refused below for what it derives
                # from, not for its dunders as if it were a module)
                refused = [
                    (n, at)
                    for n, at in dunders
                    if (is_function or is_module) and (is_function or n not in MODULE_DUNDERS)
                ]
                if refused:
                    dunder, dunder_span = refused[0]
                    raise NotSupported(
                        f"method `{dunder}` is not supported in a subclass of "
                        + ("torch.autograd.Function" if is_function else "nn.Module"),
                        span=dunder_span,
                        hint="an autograd.Function subclass defines forward, backward and "
                        "plain methods"
                        if is_function
                        else "an nn.Module subclass defines __init__, forward, plain methods "
                        "and " + ", ".join(sorted(MODULE_DUNDERS)),
                    )
                if b is FUNCTION_BASE or isinstance(b, FunctionClass):
                    if isinstance(b, FunctionClass):
                        # a subclass of the program's own Function: what it does not define
                        # is its base's (forward, backward, setup_context, jvp, vmap, flags)
                        made = {**_function_entries(b), **made}
                    if attr_spans:
                        raise NotSupported(
                            "class attributes are not supported in a torch.autograd.Function",
                            span=attr_spans[0],
                            hint="keep values on ctx in forward: ctx.name = value",
                        )
                    for need in ("forward", "backward"):
                        if need in made and not isinstance(made[need], UserFunction):
                            raise GradcliError(
                                f"class {name} has no static `{need}` method",
                                span=span,
                                expected="forward(ctx, ...) and backward(ctx, grad_output)",
                            ).mirror(None)
                    # A missing one is Function's own, which raises when it is used (PyTorch).
                    setup = made.get("setup_context")
                    # `vjp` is backward's other name (PyTorch runs whichever is defined)
                    backward, vjp = made.get("backward"), made.get("vjp")
                    both = isinstance(backward, UserFunction) and isinstance(vjp, UserFunction)
                    if isinstance(vjp, UserFunction) and not both:
                        backward = vjp
                    cls = FunctionClass(
                        name,
                        made.get("forward"),
                        backward,
                        setup if isinstance(setup, UserFunction) else None,
                    )
                    cls.both_vjp = both
                    cls.vjp_fn = vjp if isinstance(vjp, UserFunction) else None
                    for flag in FUNCTION_FLAGS:
                        if not isinstance(made.get(flag, False), bool):
                            raise GradcliError(
                                f"{name}.{flag} must be True or False",
                                span=span,
                                found=typename(made[flag]),
                            ).mirror(None)
                    cls.vmap_rule = isinstance(made.get("vmap"), UserFunction) or (
                        made.get("generate_vmap_rule") is True
                    )
                    cls.boxed_grads = made.get("boxed_grads_call") is True
                    cls.clear_saved = made.get("clear_saved_tensors_on_access") is True
                    cls.jvp_rule = isinstance(made.get("jvp"), UserFunction) or (
                        isinstance(b, FunctionClass) and "jvp" not in made and b.jvp_rule
                    )
                    own_jvp = made.get("jvp")
                    cls.jvp = (
                        own_jvp
                        if isinstance(own_jvp, UserFunction)
                        else b.jvp
                        if isinstance(b, FunctionClass) and "jvp" not in made
                        else None
                    )
                    init = made.get("__init__")
                    cls.init = init if isinstance(init, UserFunction) else None
                    cls.methods = {
                        k: v
                        for k, v in made.items()
                        if k not in _FUNCTION_OWN and isinstance(v, (UserFunction, ClassMethod))
                    }
                    cls.base = b if isinstance(b, FunctionClass) else None
                elif b is surface_nn.Module or isinstance(b, ModuleClass) or library_module(b):
                    cls = ModuleClass(name, made, tuple(v for v, _ in evaluated))
                    cls.scripted = cls.scripted or scripted
                    _check_mixins(cls)
                elif isinstance(b, Namespace) and len(evaluated) == 1:
                    # A module as the base (`class Exp(torch.autograd.function):`, a lower-case
                    # slip): Python calls the module's type with the class's three parts.
                    raise GradcliError(
                        "module() takes at most 2 arguments (3 given)",
                        span=base_span,
                        hint="derive from the class, not the module: "
                        "torch.autograd.Function, torch.nn.Module",
                    ).mirror("TypeError")
                else:
                    raise GradcliError(
                        "classes are only supported as subclasses of torch.nn.Module or "
                        "torch.autograd.Function, or of the program's own classes "
                        "(or of none: class A:)",
                        span=base_span,
                        expected="class A: ..., class Net(nn.Module): ... or "
                        "class F(torch.autograd.Function): ...",
                    ).mirror(None)
            for code in codes:
                code.owner = cls
            for deco, deco_span in class_decorators:
                d = deco(f)
                if not isinstance(d, Dataclass):
                    raise NotSupported(
                        "class decorators other than @dataclass are not supported",
                        span=deco_span,
                        hint="write an __init__ that sets the attributes: self.name = name",
                    )
                try:
                    cls = d(cls)
                except GradcliError as e:
                    raise e.with_span(deco_span) from None
            f.rt.class_docs[id(cls)] = (cls, doc)  # (`Cls.__doc__`)
            store(f, cls)

        return run

    def check_method_name(self, stmt: ast.FunctionDef) -> None:
        name = stmt.name
        if not name.startswith("__") or name in PLAIN_DUNDERS or name == "__setstate__":
            return  # (__setstate__: an Optimizer subclass's, checked with the class's base)
        if own_dunder(name):
            return  # (`def __init_state__(self)`: a name Python gives no meaning, a method)
        if name in ("__getattr__", "__setattr__"):
            return  # (called by the interpreter where Python calls them: `lang.classes`)
        if name in ("__getattribute__", "__delattr__"):
            hint = "set every attribute in __init__ (self.name = value) and read it by name"
        elif name in ("__new__", "__init_subclass__", "__class_getitem__", "__set_name__"):
            hint = "do the work in __init__"
        elif name in ("__eq__", "__ne__", "__hash__", "__lt__", "__le__", "__gt__", "__ge__"):
            hint = "instances compare by identity: compare their attributes, or define a method"
        else:
            hint = "define a plain method (def add(self, other): ...) and call it by its name"
        raise NotSupported(
            f"method `{name}` is not supported in gradcli programs",
            span=self.span(stmt),
            expected="plain methods; of the dunder methods, " + ", ".join(sorted(PLAIN_DUNDERS)),
            hint=hint,
        )

    def check_class_attribute(self, target: ast.AST) -> None:
        for n in ast.walk(target):
            if (
                isinstance(n, ast.Name)
                and n.id.startswith("__")
                and n.id.endswith("__")
                and n.id not in OPERATOR_DUNDERS  # `__radd__ = __add__`: a method's alias
                and n.id != "__constants__"  # TorchScript's names of a module's constants
            ):
                raise NotSupported(
                    f"the class attribute `{_short_name(n.id)}` is not supported",
                    span=self.span(n),
                    hint="set attributes in __init__ (self.name = value); gradcli classes "
                    "have no __slots__ or other hooks into Python's classes",
                )

    # -- imports -----------------------------------------------------------------------------
    def refuse_internal_tests(self, dotted: str, node: ast.AST) -> None:
        """`torch.testing._internal`: PyTorch's own test-suite machinery (its TestCase with
        device-generic tests, run_tests, OpInfo), not a public API: refused at the import."""
        if dotted == "torch.testing._internal" or dotted.startswith("torch.testing._internal."):
            raise NotSupported(
                f"`{dotted}` (PyTorch's internal test machinery) is not supported by gradcli",
                span=self.span(node),
                hint="write the tests with unittest: class TestX(unittest.TestCase) with "
                "self.assertEqual..., ending with unittest.main(); compare tensors with "
                "torch.testing.assert_close",
            )

    def refuse_star(self, alias: ast.alias, node: ast.ImportFrom) -> None:
        if alias.name == "*":
            raise NotSupported(
                "`import *` is not supported",
                span=self.span(node),
                hint="import the names you use",
            )

    def c_Import(self, node: ast.Import) -> Stmt:
        bindings = []
        for alias in node.names:
            self.refuse_internal_tests(alias.name, node)
            root = alias.name.split(".")[0]
            if root in UNUSED_MODULES or alias.name in BARE_UNUSED_MODULES:
                name = alias.asname or root
                unused = UnusedModule(alias.name if alias.asname else root)
                bindings.append((self.store_name(name, node), unused))
                continue
            if root not in IMPORTABLE:
                return _raiser(
                    GradcliError(
                        f"cannot import `{alias.name}`",
                        span=self.span(node),
                        expected=_IMPORTS,
                        hint="gradcli programs cannot use other modules",
                    ).mirror("ModuleNotFoundError")
                )
            store = self.store_name(alias.asname or root, node)
            flags = self.flags_module(alias.name)
            if flags is not None and alias.name not in _FLAG_MODULES:
                # torch.backends.cuda.matmul is an object, not a module
                return _raiser(
                    GradcliError(f"No module named '{alias.name}'", span=self.span(node)).mirror(
                        "ModuleNotFoundError"
                    )
                )
            if flags is not None and alias.asname:  # `import torch.backends.cudnn as cudnn`
                bindings.append((store, flags))
                continue
            try:
                ns = self.module(alias.name, node)
            except GradcliError as err:  # raised when the import runs (a program may catch it)
                return _raiser(err)
            bindings.append((store, ns if alias.asname else self.namespaces[root]))

        def run(f: Frame) -> None:
            for store, value in bindings:
                store(f, value)

        return run

    def c_ImportFrom(self, node: ast.ImportFrom) -> Stmt:
        mod = node.module or ""
        if not node.level:
            self.refuse_internal_tests(mod, node)
            for alias in node.names:
                self.refuse_internal_tests(f"{mod}.{alias.name}", node)
        if mod == "__future__" and not node.level:
            # `from __future__ import annotations`: how Python compiles, nothing to run.
            for alias in node.names:
                if alias.name not in _FUTURE:
                    raise GradcliError(
                        f"syntax error: future feature {alias.name} is not defined",
                        span=self.span(node),
                    ).mirror(None)
            return _nothing
        if mod in FROM_IMPORT_MODULES and not node.level:
            members = []
            for alias in node.names:
                self.refuse_star(alias, node)
                members.append((self.store_name(alias.asname or alias.name, node), alias.name))

            def bind_members(f: Frame) -> None:
                for store, name in members:
                    store(f, imported_member(mod, name))

            return bind_members
        if mod.split(".")[0] in UNUSED_MODULES and not node.level:
            unused_bindings = []
            for alias in node.names:
                self.refuse_star(alias, node)
                value = (
                    FUNCTOOLS[alias.name]
                    if mod == "functools" and alias.name in FUNCTOOLS
                    else UnusedModule(f"{mod}.{alias.name}")
                )
                unused_bindings.append((self.store_name(alias.asname or alias.name, node), value))

            def bind(f: Frame) -> None:
                for store, value in unused_bindings:
                    store(f, value)

            return bind
        if mod.split(".")[0] not in IMPORTABLE or node.level:
            return _raiser(
                GradcliError(
                    f"cannot import from `{mod}`",
                    span=self.span(node),
                    expected=_IMPORTS,
                ).mirror("ModuleNotFoundError")
            )
        try:
            ns = self.module(mod, node)
        except GradcliError as err:  # raised when the import runs (a program may catch it)
            return _raiser(err)
        bindings = []
        for alias in node.names:
            if alias.name == "*":
                bindings.extend(self.star_bindings(mod, ns, node))
                continue
            if alias.name in ns.members:
                value = ns.members[alias.name]
            elif hasattr(type(ns), "program_attribute") and not alias.name.startswith("_"):
                value = ns.program_attribute(alias.name)  # matplotlib.pyplot's any name
            elif mod.split(".")[0] == "torch" and not ns.members:
                # A torch module gradcli does not have: importing works, using it says so;
                # a name PyTorch's module lacks too is Python's ImportError at the import.
                if public.has(mod, alias.name) is False:
                    return _raiser(
                        GradcliError(
                            f"cannot import name '{alias.name}' from '{mod}'",
                            span=self.span(node),
                            hint=suggest(alias.name, public._names(mod) or ()) or _held(mod, ns),
                        ).mirror("ImportError")
                    )
                value = Missing(f"{mod}.{alias.name}")
            else:
                try:
                    value = self.module(f"{mod}.{alias.name}", node)
                except GradcliError:
                    if mod.split(".")[0] == "torch" and public.has(mod, alias.name):
                        # a name of PyTorch's module that gradcli lacks: refused on use
                        value = Missing(f"{mod}.{alias.name}")
                    else:
                        return _raiser(
                            GradcliError(
                                f"cannot import name '{alias.name}' from '{mod}'",
                                span=self.span(node),
                                hint=suggest(alias.name, ns.members) or _held(mod, ns),
                            ).mirror("ImportError")
                        )
            bindings.append((self.store_name(alias.asname or alias.name, node), value))

        def run(f: Frame) -> None:
            for store, value in bindings:
                store(f, value)

        return run

    def star_bindings(self, mod: str, ns: Namespace, node: ast.ImportFrom) -> list:
        """`from torch.autograd import *`: the names PyTorch's module exports (its `__all__`),
        each bound to what gradcli has under that name, or to a placeholder refused on use
        (as `from M import name` of a name gradcli lacks). A module without `__all__` exports
        every public name, the modules and helpers it imported among them, which gradcli
        cannot all stand for: refused."""
        if self.scope.kind != "module":  # Python's own rule
            raise GradcliError(
                "syntax error: import * only allowed at module level", span=self.span(node)
            ).mirror(None)
        names = public.star_names(mod)
        if names is None:
            raise NotSupported(
                f"`import *` is not supported for `{mod}` (it has no `__all__`)",
                span=self.span(node),
                hint="import the names you use",
            )
        return [
            (
                self.store_name(name, node),
                ns.members[name] if name in ns.members else Missing(f"{mod}.{name}"),
            )
            for name in names
        ]

    def flags_module(self, dotted: str) -> Any:
        """The settings object a dotted module name reaches (`torch.backends.cudnn`: its
        `deterministic`, `benchmark`...), or None when the name is not one."""
        parts = dotted.split(".")
        ns: Any = self.namespaces.get(parts[0])
        for p in parts[1:]:
            if not isinstance(ns, Namespace):
                return None
            ns = ns.members.get(p)
        if isinstance(ns, Flags) or getattr(type(ns), "settings_module", False):
            return ns  # (lang.compiling's CompileConfig: torch._dynamo.config...)
        return None

    def module(self, dotted: str, node: ast.AST) -> Namespace:
        if dotted in self.namespaces:  # a module reached only by import (its dotted name)
            return self.namespaces[dotted]
        parts = dotted.split(".")
        ns = self.namespaces[parts[0]]
        for i, p in enumerate(parts[1:], 2):
            nxt = ns.members.get(p)
            if not isinstance(nxt, Namespace):
                nxt = self.shared_submodule(".".join(parts[:i]), node)
            if not isinstance(nxt, Namespace):
                # A module gradcli does not have: one PyTorch lacks too is Python's error.
                absent = public.missing_module(dotted)
                if absent is not None:
                    raise GradcliError(absent, span=self.span(node)).mirror("ModuleNotFoundError")
                if dotted.startswith("torch") and p not in ("utils", "hub", "jit", "ops"):
                    # Other torch submodules (torch.optim, ...) are accepted, empty.
                    return Namespace(dotted, {})
                raise GradcliError(f"unknown module `{dotted}`", span=self.span(node)).mirror(
                    "ModuleNotFoundError"
                )
            ns = nxt
        return ns

    def shared_submodule(self, dotted: str, node: ast.AST) -> Namespace | None:
        """A public submodule of PyTorch's that gradcli has no table of its own for
        (`torch.distributions.one_hot_categorical`, `torch.autograd.grad_mode`): the names it
        shares with a package above it are that package's, as gradcli has them (the recorded
        table `public.submodule`); its other names are refused on use, or at the import when
        PyTorch's module lacks them too. None: not such a submodule."""
        entry = public.submodule(dotted)
        if entry is None:
            return None
        shared = entry[0]

        def members() -> dict[str, Any]:
            out: dict[str, Any] = {}
            for home, listed in shared.items():
                held = self.module(home, node).members
                out.update({n: held[n] for n in listed.split() if n in held and n not in out})
            return out

        return Namespace(dotted, load=members)

    # -- names -------------------------------------------------------------------------------
    def c_Name(self, node: ast.Name) -> Expr:
        if not isinstance(node.ctx, ast.Load):
            raise self.refuse(node)
        return self.load_name(node.id, node)

    def load_name(self, name: str, node: ast.AST) -> Expr:
        how, up = self.scope.resolve(name)
        span = self.span(node)
        if how == LOCAL and self.scope.kind == "class":
            # A class body reads a name it binds as Python's LOAD_NAME does: the class's own
            # value once bound, else the module's, else the builtin (`f = f` in a class body
            # copies the module's `f` into the class).
            outer = self.module_name(name, node, GLOBAL)

            def class_local(f: Frame) -> Any:
                v = f.vars.get(name, _MISSING)
                return outer(f) if v is _MISSING else v

            return class_local
        if how == LOCAL:

            def local(f: Frame) -> Any:
                try:
                    return f.vars[name]
                except KeyError:
                    raise GradcliError(
                        f"cannot access local variable '{name}' where it is not associated "
                        "with a value",
                        span=span,
                        hint="assign it before you use it in this function",
                    ).mirror("UnboundLocalError") from None

            return local
        if how == FREE:

            def free(f: Frame) -> Any:
                frame = f
                for _ in range(up):
                    frame = frame.up  # type: ignore[assignment]
                try:
                    return frame.vars[name]
                except KeyError:
                    raise GradcliError(
                        f"cannot access free variable '{name}' where it is not associated "
                        "with a value in enclosing scope",
                        span=span,
                    ).mirror("NameError") from None

            return free
        return self.module_name(name, node, how)

    def module_name(self, name: str, node: ast.AST, how: str) -> Expr:
        """A module-level name (`how` GLOBAL: the module's variable, else as a builtin) or a
        builtin, read where `node` is."""
        fallback = self.builtin(name, node)
        if (
            name in self.scope.module().names
            and name not in BUILTINS
            and name not in self.namespaces
            and name != "np"
        ):
            # A name the program binds (`t = ...`), unbound again (`del t`) or not yet bound:
            # Python's NameError, not the torch function gradcli lets a bare name reach.
            fallback = self.undefined(name, node)
        if how == GLOBAL:
            at_module = self.scope.kind == "module"

            def global_(f: Frame) -> Any:
                g = f.vars if at_module else f.rt.globals
                v = g.get(name, _MISSING)
                if v is _MISSING:
                    return fallback(f)
                return v

            return global_
        return fallback

    def builtin(self, name: str, node: ast.AST) -> Expr:
        """A name no statement of the program binds: a builtin, a namespace or a torch
        function, resolved now; else an error when (if) it runs."""
        value = self.builtin_value(name)
        if value is not _MISSING and (name in BUILTINS or not self.strict_names):
            return lambda f: value
        if name == "type":
            span = self.span(node)

            def refuse_type(f: Frame) -> Any:
                raise NotSupported(
                    "`type` is only supported as a call: type(x)",
                    span=span,
                    hint="compare with isinstance(x, torch.Tensor)",
                )

            return refuse_type
        return self.undefined(name, node)

    def undefined(self, name: str, node: ast.AST) -> Expr:
        """What a name no value is bound to does when it runs: NameError (or a refusal)."""
        span = self.span(node)
        # (the names are listed when the error is raised: every unresolved reference of a
        # program with many names would otherwise keep a copy of all of them)
        module_scope = self.scope.module()

        refused = _REFUSED_BUILTINS.get(name)
        strict = self.strict_names

        def undefined(f: Frame) -> Any:
            if refused is not None:
                raise NotSupported(
                    f"Python's `{name}` is not supported in gradcli programs",
                    span=span,
                    found=f"`{name}`",
                    hint=refused,
                )
            # (torch's names listed only here: listing them imports every family)
            module_names = [n for n in module_scope.names if n != name]
            known = module_names + list(names.FUNCTIONS) + list(BUILTINS)
            raise GradcliError(
                f"name '{_short_name(name)}' is not defined",
                span=span,
                found=f"`{_short_name(name)}`",
                expected="a name assigned or imported earlier in the program"
                if strict
                else "a name assigned earlier in the program, or a torch function",
                hint=_IMPORT_HINTS.get(name)
                if strict and name in _IMPORT_HINTS
                else _NOTEBOOK_HINTS.get(name)
                or (suggest(name, known + ["torch"]) if len(name) < 100 else None),
            ).mirror("NameError")

        return undefined

    def builtin_value(self, name: str) -> Any:
        if name in BUILTINS:
            return BUILTINS[name]
        if name in self.namespaces:
            return self.namespaces[name]
        if name == "np":
            return self.namespaces["numpy"]
        if name in names.FUNCTIONS:
            return names.FUNCTIONS[name]
        return _MISSING

    # -- constants and displays --------------------------------------------------------------
    def c_Constant(self, node: ast.Constant) -> Expr:
        value = node.value
        if not isinstance(
            value, (int, float, complex, str, bytes, bool, type(None), type(Ellipsis))
        ):
            raise NotSupported(
                "this kind of constant is not supported",
                span=self.span(node),
                found=type(value).__name__,
                expected="numbers, strings, bytes, True/False/None",
            )
        if isinstance(value, int) and value.bit_length() > limits.INT_BITS.value:
            try:
                limits.INT_BITS.check(value.bit_length(), "the size of an integer in bits")
            except GradcliError as e:
                raise e.with_span(self.span(node)) from None
        return lambda f: value

    def items(self, elts: list[ast.expr]) -> Expr:
        """The values of a display's items, `*iterable` unpacked (within the list limit)."""
        if not any(isinstance(e, ast.Starred) for e in elts):
            fns = tuple(self.expr(e) for e in elts)
            return lambda f: [e(f) for e in fns]
        parts = [
            (self.span(e), self.expr(e.value))
            if isinstance(e, ast.Starred)
            else (None, self.expr(e))
            for e in elts
        ]

        def run(f: Frame) -> list:
            out: list = []
            for star, e in parts:
                if star is not None:
                    try:
                        out.extend(seq(e(f), "`*` unpacking"))
                        limits.LIST_ITEMS.check(len(out), "the number of items")
                    except GradcliError as err:
                        raise err.with_span(star) from None
                else:
                    out.append(e(f))
            return out

        return run

    def c_List(self, node: ast.List) -> Expr:
        if not isinstance(node.ctx, ast.Load):
            raise self.refuse(node)
        return self.items(node.elts)

    def c_Tuple(self, node: ast.Tuple) -> Expr:
        if not isinstance(node.ctx, ast.Load):
            raise self.refuse(node)
        if not any(isinstance(e, ast.Starred) for e in node.elts):
            fns = tuple(self.expr(e) for e in node.elts)
            if len(fns) == 2:
                a, b = fns
                return lambda f: (a(f), b(f))
            return lambda f: tuple([e(f) for e in fns])
        items = self.items(node.elts)
        return lambda f: tuple(items(f))

    def c_Set(self, node: ast.Set) -> Expr:
        items = self.items(node.elts)
        from .pyobjects import _hashable

        return lambda f: {_hashable(v) for v in items(f)}

    def c_Dict(self, node: ast.Dict) -> Expr:
        from .pyobjects import _hashable

        parts = [
            (None if k is None else self.expr(k), self.expr(v))
            for k, v in zip(node.keys, node.values)
        ]

        def run(f: Frame) -> dict:
            out: dict = {}
            for k, v in parts:
                if k is None:
                    m = v(f)
                    if not isinstance(m, dict):
                        raise GradcliError(f"'{type(m).__name__}' object is not a mapping").mirror(
                            "TypeError"
                        )
                    limits.LIST_ITEMS.check(len(out) + len(m), "the number of items in the dict")
                    out.update(m)
                else:
                    out[_hashable(k(f))] = v(f)
            return out

        return run

    def c_JoinedStr(self, node: ast.JoinedStr) -> Expr:
        parts: list[Any] = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(v.value)
            elif isinstance(v, ast.FormattedValue):
                value = self.expr(v.value)
                spec = self.c_JoinedStr(v.format_spec) if v.format_spec is not None else None
                parts.append((value, v.conversion, spec, self.span(v.value)))
            else:
                raise self.refuse(v)

        def run(f: Frame) -> str:
            out = []
            for p in parts:
                if type(p) is str:
                    out.append(p)
                    continue
                value, conversion, spec, span = p
                v = value(f)
                try:
                    out.append(field(v, conversion, spec(f) if spec is not None else ""))
                except GradcliError as e:
                    raise e.with_span(span) from None
            return join(out)

        return run

    # -- operators ---------------------------------------------------------------------------
    def c_BinOp(self, node: ast.BinOp) -> Expr:
        op = node.op
        self.check_operator(op, node)
        left = self.expr(node.left)
        right = self.expr(node.right)
        span = self.span(node)
        tensor_fn = _TENSOR_BINOPS.get(type(op))

        def run(f: Frame) -> Any:
            a = left(f)
            b = right(f)
            try:
                if tensor_fn is not None and not WIDE_UINT[0]:
                    # the hot cases straight to the tensor's operator: tensor with tensor or a
                    # Python number (binop sees to the rest: arrays, lists, None...)
                    ta, tb = type(a), type(b)
                    if ta is Tensor:
                        if tb is Tensor or tb is int:
                            return tensor_fn(a, b)
                        if tb is float:
                            with program_float():  # (PyTorch's wrapped number: core.forward)
                                return tensor_fn(a, b)
                    elif tb is Tensor:
                        if ta is int:
                            return tensor_fn(a, b)
                        if ta is float:
                            with program_float():
                                return tensor_fn(a, b)
                return binop(op, a, b)
            except Exception as e:  # noqa: BLE001 - re-raised with its place
                raise _attach(e, span) from None

        return run

    def c_UnaryOp(self, node: ast.UnaryOp) -> Expr:
        op = node.op
        self.check_operator(op, node)
        operand = self.expr(node.operand)
        span = self.span(node)
        if isinstance(op, ast.Not):
            operand_span = self.span(node.operand)

            def run_not(f: Frame) -> bool:
                try:
                    return not truth(operand(f))
                except GradcliError as e:
                    raise e.with_span(operand_span) from None

            return run_not

        def run(f: Frame) -> Any:
            v = operand(f)
            try:
                return unary(op, v)
            except Exception as e:  # noqa: BLE001 - re-raised with its place
                raise _attach(e, span) from None

        return run

    def c_BoolOp(self, node: ast.BoolOp) -> Expr:
        values = tuple(self.expr(v) for v in node.values)
        is_and = isinstance(node.op, ast.And)
        span = self.span(node)

        last = len(values) - 1

        def run(f: Frame) -> Any:
            value: Any = None
            for i, e in enumerate(values):
                value = e(f)
                if i == last:
                    return value  # Python does not test the last operand: `a or t` is t
                try:
                    t = truth(value)
                except GradcliError as err:
                    raise err.with_span(span) from None
                if is_and and not t:
                    return value
                if not is_and and t:
                    return value
            return value

        return run

    def c_Compare(self, node: ast.Compare) -> Expr:
        bound = self.name_in_namespace(node)
        if bound is not None:
            return bound
        for op in node.ops:
            self.check_operator(op, node)
        left = self.expr(node.left)
        rights = tuple(self.expr(c) for c in node.comparators)
        ops = tuple(node.ops)
        span = self.span(node)
        if len(ops) == 1:
            op0, right0 = ops[0], rights[0]

            def run_one(f: Frame) -> Any:
                a = left(f)
                b = right0(f)
                try:
                    return compare(op0, a, b)
                except Exception as e:  # noqa: BLE001 - re-raised with its place
                    raise _attach(e, span) from None

            return run_one

        def run(f: Frame) -> Any:
            a = left(f)
            r: Any = True
            for op, right in zip(ops, rights):
                b = right(f)
                try:
                    r = compare(op, a, b)
                    if not truth(r):
                        return r
                except Exception as e:  # noqa: BLE001 - re-raised with its place
                    raise _attach(e, span) from None
                a = b
            return r

        return run

    def name_in_namespace(self, node: ast.Compare) -> Expr | None:
        """`'net' in locals()` / `'net' not in globals()` (a notebook's "is it defined yet"; also
        `in dir()` and `in vars()`, the same names as `locals()`):
        whether the program's variable is bound now, as Python answers it, without the
        dictionary (`locals()` and `globals()` themselves stay refused). At module level both
        are the module's variables; in a function `locals()` its own, `globals()` the
        module's. None for any other comparison, or where the name `locals` / `globals` is
        the program's own."""
        if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.In, ast.NotIn)):
            return None
        left, call = node.left, node.comparators[0]
        if not (isinstance(left, ast.Constant) and isinstance(left.value, str)):
            return None
        if not (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id in ("locals", "globals", "dir", "vars")
            and not call.args
            and not call.keywords
        ):
            return None
        which, name = call.func.id, left.value
        if self.scope.resolve(which)[0] != BUILTIN:
            return None
        if which in ("dir", "vars"):
            which = "locals"  # (without an argument: the names of the scope, as locals())
        negate = isinstance(node.ops[0], ast.NotIn)
        module = self.scope.kind == "module"
        if module or which == "globals":
            if not (module or self.scope.kind == "function"):
                return None  # (a class body or a comprehension: not mirrored)
            if name in _SCRIPT_GLOBALS and name not in self.scope.module().names:
                return lambda f: not negate  # (what every script's globals() holds)
            known = name in self.scope.module().names

            def in_module(f: Frame) -> bool:
                g = f.vars if module else f.rt.globals
                return (known and name in g) != negate

            return in_module
        if self.scope.kind != "function":
            return None
        how = self.scope.resolve(name)[0]
        if how == FREE:
            return None  # (a free variable Python's locals() lists too: not mirrored)
        if how != LOCAL:
            return lambda f: negate  # (not one of the function's names)

        def in_function(f: Frame) -> bool:
            return (name in f.vars) != negate

        return in_function

    def c_NamedExpr(self, node: ast.NamedExpr) -> Expr:
        """`name := value`: bound in the scope around any comprehensions it is in (Python's
        rule), the value given back."""
        value = self.expr(node.value)
        name = node.target.id  # (the parser allows a name only)
        scope, up = self.scope, 0
        while scope.kind == "comprehension":
            if name in scope.names:
                raise GradcliError(
                    f"assignment expression cannot rebind comprehension iteration variable "
                    f"'{name}'",
                    span=self.span(node),
                ).mirror("SyntaxError")
            scope, up = scope.parent, up + 1  # type: ignore[assignment]
        if up and scope.kind == "class":
            raise GradcliError(
                "assignment expression within a comprehension cannot be used in a class body",
                span=self.span(node),
            ).mirror("SyntaxError")
        if up == 0:
            store = self.store_name(name, node.target)
        elif scope.kind == "module":
            target = node.target

            def store(f: Frame, v: Any) -> None:
                if isinstance(v, Tensor):
                    v = f.rt.record(name, v, target)
                f.rt.globals[name] = v

        elif name in scope.globals_:  # `global name` in the function around
            target = node.target

            def store(f: Frame, v: Any) -> None:
                if isinstance(v, Tensor):
                    v = f.rt.record(name, v, target)
                f.rt.globals[name] = v

        else:
            if name in scope.nonlocals:  # `nonlocal name`: further up, where it is bound
                up += scope.resolve(name)[1]

            def store(f: Frame, v: Any) -> None:
                frame = f
                for _ in range(up):
                    frame = frame.up  # type: ignore[assignment]
                frame.vars[name] = v

        def run(f: Frame) -> Any:
            v = value(f)
            store(f, v)
            return v

        return run

    def c_IfExp(self, node: ast.IfExp) -> Expr:
        test = self.expr(node.test)
        body = self.expr(node.body)
        orelse = self.expr(node.orelse)
        span = self.span(node.test)

        def run(f: Frame) -> Any:
            try:
                t = truth(test(f))
            except GradcliError as e:
                raise e.with_span(span) from None
            return body(f) if t else orelse(f)

        return run

    # -- attributes, subscripts, slices --------------------------------------------------------
    def check_attribute(self, node: ast.Attribute, load: bool = False) -> None:
        """The dunder audit: no `.__x__` but `__name__` and `__version__`; read (`load`), also
        `.__class__` (what type() gives) and the dunder methods a program's class may define
        (`ds.__len__()`: `program_dunder` finds the program's own, refuses any other)."""
        attr = node.attr
        if attr.startswith("__") and attr not in _DUNDERS_ALLOWED:
            if attr in ("__init__", "__setstate__", "__setattr__", "__getattr__") and (
                _is_super_call(node.value)
            ):
                # (__setstate__: an Optimizer subclass's, Super answers for others;
                # __setattr__/__getattr__: the base's, from the class's own)
                return
            if load and (
                attr in ("__class__", "__module__", "__qualname__", "__doc__", "__dict__")
                or attr in VALUE_DUNDERS  # a tensor's or number's `x.__add__(y)` (`dunders`)
                or (attr in PLAIN_DUNDERS and attr not in OPERATOR_DUNDERS)
                or own_dunder(attr)  # `self.__init_state__()`: the program's own method
            ):
                return  # (__doc__: the docstring of the program's own function or class)
            raise GradcliError(
                f"`.{_short_name(attr)}` is not accessible in gradcli programs",
                span=attr_span(self.source, node),
                found=f"`.{_short_name(attr)}`",
                expected="a tensor method or property (see `gradcli ops`)",
                hint="a value's class is read, never assigned"
                if attr == "__class__"
                else "vars(obj) gives a plain class's attributes; of a module, print "
                "dict(model.named_parameters()) or model.state_dict()"
                if attr == "__dict__"
                else "gradcli programs cannot reach Python's internals",
            ).mirror(None)

    def attribute_getter(self, attr: str) -> Callable[[Any, Any], Any]:
        """How `owner.attr` is read at run time: `(rt, owner) -> value`."""
        if attr == "__doc__":
            return program_doc
        if attr == "__class__":
            of = TYPE_BUILTIN.fn
            return lambda rt, o: of(o)
        if attr == "__dict__":  # of a program's plain instance only: what vars() gives
            from .builtins import instance_dict

            return lambda rt, o: instance_dict(o)
        if attr in ("__module__", "__qualname__"):  # strings only (torch_reprs)
            from .torch_reprs import dunder_name

            return lambda rt, o: dunder_name(o, attr)
        of = TYPE_BUILTIN.fn
        if attr in VALUE_DUNDERS:
            own = lambda rt, o: program_dunder(rt, o, attr, of)  # noqa: E731
            return lambda rt, o: value_dunder(rt, o, attr, own)
        if attr.startswith("__") and (attr in PLAIN_DUNDERS or own_dunder(attr)):
            return lambda rt, o: program_dunder(rt, o, attr, of)
        return lambda rt, o: rt.attribute(o, attr)

    def c_Attribute(self, node: ast.Attribute) -> Expr:
        if not isinstance(node.ctx, ast.Load):
            raise self.refuse(node)
        self.check_attribute(node, load=True)
        owner = self.expr(node.value)
        attr = node.attr
        span = self.span(node)
        prop = TENSOR_PROPERTIES.get(attr)
        if attr.startswith("__") and attr != "__name__":
            get = self.attribute_getter(attr)
            dunder_span = attr_span(self.source, node)

            def run_dunder(f: Frame) -> Any:
                o = owner(f)
                try:
                    return get(f.rt, o)
                except Exception as e:  # noqa: BLE001 - re-raised with its place
                    raise _attach(e, dunder_span) from None

            return run_dunder

        def run(f: Frame) -> Any:
            o = owner(f)
            try:
                if (
                    prop is not None
                    and isinstance(o, Tensor)
                    and not (_LAZY[0] and type(o) in _UNINITIALIZED)
                ):
                    return prop(o)
                return f.rt.attribute(o, attr)
            except Exception as e:  # noqa: BLE001 - re-raised with its place
                raise _attach(_name_cut(e, attr), span) from None

        return run

    def c_Subscript(self, node: ast.Subscript) -> Expr:
        if not isinstance(node.ctx, ast.Load):
            raise self.refuse(node)
        owner = self.expr(node.value)
        key = self.expr(node.slice)
        span = self.span(node)
        getitem = I.getitem
        sliced = _has_slice(node.slice)

        def run(f: Frame) -> Any:
            o = owner(f)
            k = key(f)
            if sliced:  # numbers in a slice only for the owners that take them (np.mgrid)
                k = _loosened(k) if getattr(type(o), "NUMBER_SLICES", False) else _strict(k)
            try:
                if type(o) is Tensor and type(k) is int:
                    return getitem(o, k)
                return f.rt.getitem(o, k)
            except Exception as e:  # noqa: BLE001 - re-raised with its place
                raise _attach(e, span) from None

        return run

    def strict_key(self, node: ast.expr) -> Expr:
        """A subscript's key where a slice takes integers only (stores and deletes)."""
        key = self.expr(node)
        if not _has_slice(node):
            return key
        return lambda f: _strict(key(f))

    def c_Slice(self, node: ast.Slice) -> Expr:
        subs = (node.lower, node.upper, node.step)
        parts = tuple(None if p is None else (self.expr(p), self.span(p)) for p in subs)

        def run(f: Frame) -> slice | _LooseSlice:
            vals = []
            loose = None
            for p in parts:
                if p is None:
                    vals.append(None)
                    continue
                fn, span = p
                v = fn(f)
                if PROGRAM_INSTANCES and isinstance(v, PROGRAM_INSTANCES[0]):
                    v = program_index(v)  # (its __index__; the check below as for any value)
                if v is None or (isinstance(v, int) and not isinstance(v, bool)):
                    vals.append(v)
                elif isinstance(v, (_np_integer, Tensor)):  # (its __index__)
                    try:
                        vals.append(as_index(v))
                    except GradcliError as e:
                        raise e.with_span(span) from None
                elif isinstance(v, (float, complex, np.floating)):
                    vals.append(v)  # refused by the subscript unless its owner takes numbers
                    loose = loose or (v, span)
                else:
                    raise _slice_error(v, span)
            return slice(*vals) if loose is None else _LooseSlice(slice(*vals), *loose)

        return run

    # -- calls -------------------------------------------------------------------------------
    def arguments(
        self, args: list[ast.expr], keywords: list[ast.keyword]
    ) -> Callable[[Frame], tuple[list, dict]]:
        plain = not any(isinstance(a, ast.Starred) for a in args) and all(
            k.arg is not None for k in keywords
        )
        if plain:
            argfns = tuple(self.expr(a) for a in args)
            kwfns = tuple((k.arg, self.expr(k.value)) for k in keywords)
            if not kwfns:
                if len(argfns) == 1:
                    a0 = argfns[0]
                    return lambda f: ([a0(f)], {})
                return lambda f: ([a(f) for a in argfns], {})
            return lambda f: ([a(f) for a in argfns], {k: v(f) for k, v in kwfns})
        items = self.items(args)
        kparts = [(k.arg, self.expr(k.value), self.span(k.value)) for k in keywords]

        def run(f: Frame) -> tuple[list, dict]:
            kw: dict = {}
            for name, v, span in kparts:
                value = v(f)
                if name is not None:
                    if name in kw:
                        raise GradcliError(
                            f"got multiple values for keyword argument '{name}'", span=span
                        ).mirror("TypeError")
                    kw[name] = value
                    continue
                if not isinstance(value, dict):
                    raise GradcliError(
                        f"argument after ** must be a mapping, not {type(value).__name__}",
                        span=span,
                    ).mirror("TypeError")
                for k2, v2 in value.items():
                    if not isinstance(k2, str):
                        raise GradcliError("keywords must be strings", span=span).mirror(
                            "TypeError"
                        )
                    if k2 in kw:
                        raise GradcliError(
                            f"got multiple values for keyword argument '{k2}'", span=span
                        ).mirror("TypeError")
                    kw[k2] = v2
            return items(f), kw

        return run

    def c_Call(self, node: ast.Call) -> Expr:
        func = node.func
        span = self.span(node)
        if isinstance(func, ast.Name):
            how, _ = self.scope.resolve(func.id)
            if how == BUILTIN and func.id == "type":
                return self.call_type(node)
            if how == BUILTIN and func.id == "super":
                return self.call_super(node)
        # A call of positional arguments only (`torch.sin(x)`): their expressions, so that
        # a call of a function already called (and bound) here skips the binding.
        positional = (
            tuple(self.expr(a) for a in node.args)
            if not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args)
            else None
        )
        if positional is None:
            args_of = self.arguments(node.args, node.keywords)
        elif len(positional) == 1:
            a0 = positional[0]
            args_of = lambda f: ([a0(f)], {})  # noqa: E731 - as `arguments` makes it
        else:
            args_of = lambda f: ([a(f) for a in positional], {})  # noqa: E731
        if isinstance(func, ast.Attribute) and isinstance(func.ctx, ast.Load):
            # A method call: the tensor method found without making a bound method.
            self.check_attribute(func, load=True)
            owner = self.expr(func.value)
            attr = func.attr
            get = self.attribute_getter(attr) if attr.startswith("__") else None
            method = TENSOR_METHODS.get(attr) if attr not in TENSOR_PROPERTIES else None
            attr_node_span = self.span(func) if get is None else attr_span(self.source, func)
            # The function of a namespace this site called last with its positional arguments
            # (`checked_call` bound them to it: the same function and as many arguments bind).
            bound_here: list[Any] = [None, None]  # the function, and how to name it

            def call_method(f: Frame) -> Any:
                o = owner(f)
                rt = f.rt
                if type(o) is Namespace:
                    # The table as it is (a name of a family not imported yet is found, and
                    # its family imported, by rt.attribute below): a LazyTable's own `get`
                    # costs a Python call on every `torch.X(...)`.
                    members = o._members
                    callee = dict.get(members if members is not None else o.members, attr, _MISSING)
                    if type(callee) is FunctionType and _FX_TRACING[0] is None:
                        args, kwargs = args_of(f)
                        try:
                            if callee is bound_here[0]:
                                return call_positional(callee, args, bound_here[1])
                            name = lambda: call_name(node, callee)  # noqa: E731
                            r = checked_call(callee, args, kwargs, name, False, False)
                        except Exception as e:  # noqa: BLE001 - re-raised with its place
                            raise _attach(e, span) from None
                        if positional is not None:
                            bound_here[0], bound_here[1] = callee, name
                        return r
                if (
                    method is not None
                    and isinstance(o, Tensor)
                    and not (_LAZY[0] and type(o) in _UNINITIALIZED)
                    and getattr(o, "_attrs", None) is None  # (an own `x.sum = f` comes first)
                    and _FX_TRACING[0] is None  # (torch.fx: a proxy among the arguments)
                ):
                    args, kwargs = args_of(f)
                    try:
                        return checked_call(method, [o, *args], kwargs, attr, True, False)
                    except Exception as e:  # noqa: BLE001 - re-raised with its place
                        raise _attach(e, span) from None
                try:
                    callee = rt.attribute(o, attr) if get is None else get(rt, o)
                except Exception as e:  # noqa: BLE001 - re-raised with its place
                    raise _attach(_name_cut(e, attr), attr_node_span) from None
                args, kwargs = args_of(f)
                try:
                    return rt.call(callee, args, kwargs, node)
                except Exception as e:  # noqa: BLE001 - re-raised with its place
                    raise _attach(e, span) from None

            return call_method
        fn = self.expr(func)

        def call(f: Frame) -> Any:
            callee = fn(f)
            args, kwargs = args_of(f)
            try:
                return f.rt.call(callee, args, kwargs, node)
            except Exception as e:  # noqa: BLE001 - re-raised with its place
                raise _attach(e, span) from None

        return call

    def call_type(self, node: ast.Call) -> Expr:
        if len(node.args) != 1 or node.keywords:
            raise NotSupported(
                "type() is only supported with one argument: type(x)",
                span=self.span(node),
                hint="classes are defined with `class`",
            )
        value = self.expr(node.args[0])
        of = TYPE_BUILTIN.fn
        return lambda f: of(value(f))

    def call_super(self, node: ast.Call) -> Expr:
        code = self.method
        if code is None:
            raise GradcliError(
                "super() is only supported inside a method of a class",
                span=self.span(node),
            ).mirror(None)
        span = self.span(node)
        if node.args or node.keywords:
            if len(node.args) != 2 or node.keywords:
                raise NotSupported("super() takes no arguments or (Class, self)", span=span)
            cls_of = self.expr(node.args[0])
            obj_of = self.expr(node.args[1])
            return lambda f: Super(cls_of(f), obj_of(f))
        if not code.positional:
            raise GradcliError("super(): no arguments", span=span).mirror("RuntimeError")
        first = code.positional[0]
        return lambda f: Super(code.owner, f.vars.get(first))

    # -- comprehensions ----------------------------------------------------------------------
    def comprehension(
        self, generators: list[ast.comprehension], element: Callable[[], Any]
    ) -> tuple[Expr, Callable[[Frame, Any], Any]]:
        """(the first iterable, evaluated in the enclosing scope; a Python generator of the
        element values, given the enclosing frame and that iterable)."""
        first = self.expr(generators[0].iter)
        names_ = set()
        for g in generators:
            for n in ast.walk(g.target):
                if isinstance(n, ast.Name):
                    names_.add(n.id)
            if g.is_async:
                raise self.refuse(g, "async comprehensions are not supported")
        saved = (self.scope, self.in_loop)
        self.scope = Scope("comprehension", self.scope, names_)
        self.in_loop = False
        try:
            levels = []
            for i, g in enumerate(generators):
                iter_fn = None if i == 0 else self.expr(g.iter)
                levels.append((iter_fn, self.store(g.target), tuple(self.expr(c) for c in g.ifs)))
            elt = element()
        finally:
            self.scope, self.in_loop = saved
        depth = len(levels)
        tick = limits.BUDGET.tick

        def generate(outer: Frame, items: Any) -> Any:
            cf = Frame({}, outer, outer.rt)
            rt = outer.rt
            cap = limits.LOOP_ITERATIONS.value

            def level(i: int, it: Any) -> Any:
                _, store, ifs = levels[i]
                for item in iterate(it, "a comprehension"):
                    rt.iterations += 1
                    if rt.iterations > cap:
                        limits.LOOP_ITERATIONS.check(rt.iterations, "the number of loop iterations")
                    tick()
                    store(cf, item)
                    if ifs and not all(truth(c(cf)) for c in ifs):
                        continue
                    if i + 1 < depth:
                        yield from level(i + 1, levels[i + 1][0](cf))  # type: ignore[misc]
                    else:
                        yield elt(cf)

            return level(0, items)

        return first, generate

    def _listlike(self, node: Any, make: Callable[[Any], Any]) -> Expr:
        first, generate = self.comprehension(node.generators, lambda: self.expr(node.elt))
        span = self.span(node)

        def run(f: Frame) -> Any:
            items = first(f)
            cap = limits.LIST_ITEMS.value
            out = []
            try:
                for v in generate(f, items):
                    out.append(v)
                    if len(out) > cap:
                        limits.LIST_ITEMS.check(len(out), "the number of items")
            except GradcliError as e:
                raise e.with_span(span) from None
            return make(out)

        return run

    def c_ListComp(self, node: ast.ListComp) -> Expr:
        return self._listlike(node, lambda out: out)

    def c_SetComp(self, node: ast.SetComp) -> Expr:
        from .pyobjects import _hashable

        return self._listlike(node, lambda out: {_hashable(v) for v in out})

    def c_DictComp(self, node: ast.DictComp) -> Expr:
        from .pyobjects import _hashable

        def element() -> Expr:
            k = self.expr(node.key)
            v = self.expr(node.value)
            return lambda f: (k(f), v(f))

        first, generate = self.comprehension(node.generators, element)
        span = self.span(node)

        def run(f: Frame) -> dict:
            items = first(f)
            cap = limits.LIST_ITEMS.value
            out: dict = {}
            try:
                for k, v in generate(f, items):
                    out[_hashable(k)] = v
                    if len(out) > cap:
                        limits.LIST_ITEMS.check(len(out), "the number of items in the dict")
            except GradcliError as e:
                raise e.with_span(span) from None
            return out

        return run

    def c_GeneratorExp(self, node: ast.GeneratorExp) -> Expr:
        first, generate = self.comprehension(node.generators, lambda: self.expr(node.elt))
        return lambda f: Generator(generate(f, first(f)))


# --- helpers ----------------------------------------------------------------------------------


_DECLARE = "declare it in a method, or assign the class attribute after the class"


def _check_use_before_declaration(
    body: list[ast.stmt],
    declared: dict[str, ast.AST],
    bad: Callable[[str, ast.AST], GradcliError],
) -> None:
    """Python's rule: a name a function declares `global` / `nonlocal` may not be used or
    bound in it before the declaration (nested functions' and comprehensions' own scopes
    aside; as Python's compiler, an `import` binding it is not checked)."""
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        name = None
        bound = False
        if isinstance(node, ast.Name):
            name, bound = node.id, not isinstance(node.ctx, ast.Load)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name, bound = node.name, True
        elif isinstance(node, ast.ExceptHandler) and node.name:
            name, bound = node.name, True
        if name is not None and name in declared:
            decl = declared[name]
            where = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
            if where < (decl.lineno, decl.col_offset):  # type: ignore[attr-defined]
                kind = "global" if isinstance(decl, ast.Global) else "nonlocal"
                verb = "is assigned to before" if bound else "is used prior to"
                raise bad(f"name '{name}' {verb} {kind} declaration", decl)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            stack.append(node.generators[0].iter)  # (the rest is the comprehension's scope)
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            if not isinstance(node, ast.Lambda):
                stack.extend(node.decorator_list)
            if not isinstance(node, ast.ClassDef):
                stack.extend(node.args.defaults)
                stack.extend(d for d in node.args.kw_defaults if d is not None)
            else:
                stack.extend(node.bases)
            continue
        stack.extend(ast.iter_child_nodes(node))


def _nothing(f: Frame) -> None:
    return None


# Where a `yield` of a function's body belongs to another scope (Python's compiler refuses a
# `yield` in a comprehension; a nested function or class has its own).
_OTHER_SCOPES = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.Lambda,
    ast.ClassDef,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)


def _first_yield(node: ast.AST) -> ast.AST | None:
    """The first `yield` / `yield from` of this function's own code in `node`."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            return n
        if n is not node and isinstance(n, _OTHER_SCOPES):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(n))))
    return None


def _has_yield(body: list[ast.stmt]) -> bool:
    """Whether statements hold a `yield` of their own function (a generator function's)."""
    return any(
        _first_yield(s) is not None
        for s in body
        if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    )


def _held(mod: str, ns: Namespace) -> str:
    """The hint of `from M import name` of a name M does not have: the names gradcli has
    from M (the public ones; a few, then how many more)."""
    held = sorted(n for n in ns.members if not n.startswith("_"))
    if not held:
        return f"gradcli has no names from `{mod}`; see `gradcli ops` for what is supported"
    shown = ", ".join(held[:8]) + (f" (and {len(held) - 8} more)" if len(held) > 8 else "")
    return f"`{mod}` has in gradcli: {shown}"


def _raiser(error: GradcliError) -> Stmt:
    def run(f: Frame) -> None:
        raise error

    return run


def _bind(store: Store, f: Frame) -> Callable[[Any], None]:
    return lambda v: store(f, v)


def _decorated(make: Expr, decorators: list[Callable[[Frame, Any], Any]]) -> Expr:
    if not decorators:
        return make

    def run(f: Frame) -> Any:
        fn = make(f)
        for d in reversed(decorators):
            fn = d(f, fn)
        return fn

    return run


def _storing(store: Store, make: Expr) -> Stmt:
    def run(f: Frame) -> None:
        store(f, make(f))

    return run


def _class_attribute(stmt: ast.Assign | ast.AnnAssign) -> bool:
    """`name = value` (or `a, b = ...`, `x: int = 3`) in a class body: names as targets."""
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
    return all(
        isinstance(n, (ast.Name, ast.Tuple, ast.List, ast.Store))
        for t in targets
        for n in ast.walk(t)
    )


def _wrapped(fn: Any, kind: Any, what: str) -> Any:
    if not isinstance(fn, UserFunction):
        raise NotSupported(f"{what} is supported on a plain method (as the outermost decorator)")
    return kind(fn)


def _static(fn: Any) -> Any:
    if isinstance(fn, UserFunction):
        fn = fn.copy()
        fn.static = True
    return fn


def _is_super_call(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"
    )


def _short_name(name: str) -> str:
    return name if len(name) <= 60 else name[:57] + "..."


def _name_cut(e: BaseException, name: str) -> BaseException:
    """`e` with a long name (a program may use one of any length) cut in its message: an error
    that quoted it whole could be megabytes on stderr."""
    if len(name) > 60 and isinstance(e, GradcliError):
        cut = _short_name(name)
        e.message = e.message.replace(name, cut)
        e.args = (e.message,)
        if e.found:
            e.found = e.found.replace(name, cut)
    return e


def _unpack_items(v: Any, span: Any) -> list:
    try:
        return seq(v, "unpacking")
    except GradcliError as e:
        if "not iterable" in e.message:
            from ..core.tensor import typename

            raise GradcliError(
                f"cannot unpack non-iterable {typename(v)} object", span=span
            ).mirror("TypeError") from None
        raise


def _unpack_error(got: int, want: int, span: Any) -> GradcliError:
    if got > want:
        msg = f"too many values to unpack (expected {want})"
    else:
        msg = f"not enough values to unpack (expected {want}, got {got})"
    return GradcliError(
        msg,
        span=span,
        found=f"{got} values",
        expected=f"{want}",
        hint="a one-element tuple unpacks as `g, = ...`" if got == 1 else None,
    ).mirror("ValueError")


def _function_entries(base: FunctionClass) -> dict[str, Any]:
    """The entries a subclass of the program's Function class `base` inherits, as the class
    body's own would give them (see `c_ClassDef`)."""
    got: dict[str, Any] = {}
    for name in ("forward", "backward", "setup_context", "__init__"):
        fn = base.init if name == "__init__" else getattr(base, name)
        if fn is not None and not (name == "backward" and fn is base.vjp_fn):
            got[name] = fn
    if base.vjp_fn is not None:
        got["vjp"] = base.vjp_fn
    if base.vmap_rule:
        got["generate_vmap_rule"] = True
    if base.boxed_grads:
        got["boxed_grads_call"] = True
    if base.clear_saved:
        got["clear_saved_tensors_on_access"] = True
    return got
