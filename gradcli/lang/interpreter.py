"""The language: a safe subset of Python, parsed with `ast` and interpreted node by node.

Nothing in a program is ever given to `eval`, `exec` or `compile`. Every AST node type has an
explicit handler in a dict; any other node is an error with its span. Names resolve only to
gradcli's own values: its tensors, the PyTorch-shaped functions of `gradcli.functional`, a few
Python builtins, and the program's own variables and functions. Attributes resolve only through
explicit tables (a tensor's methods and properties, a namespace's members); there is no
`getattr` on a user-chosen name, so dunders and Python internals are unreachable.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, LimitError, Record, Source, Span, suggest
from ..core import autograd
from ..core.tensor import Settings, Tensor, as_tensor, data_array, typename
from ..ops import arithmetic as A
from ..ops.custom import custom_apply
from ..surface import constructors as K
from ..surface import functional as F
from ..surface import indexing as I
from ..surface import names
from ..surface import nn as surface_nn
from ..surface.printing import Size, format_value

# --- values a program can hold besides tensors and Python scalars --------------------------------


class Namespace:
    """`torch`, `torch.nn`, `F`, `numpy`...: a fixed table of members."""

    def __init__(self, name: str, members: dict[str, Any]):
        self.name = name
        self.members = members

    def __repr__(self) -> str:
        return f"<module '{self.name}'>"


class DType(Record):
    _fields = ("name", "np")
    name: str
    np: np.dtype

    def __repr__(self) -> str:
        return f"torch.{self.name}"


class Builtin(Record):
    _fields = ("name", "fn")
    name: str
    fn: Callable[..., Any]

    def __repr__(self) -> str:
        return f"<built-in function {self.name}>"


class BoundMethod(Record):
    _fields = ("name", "fn", "obj")
    name: str
    fn: Callable[..., Any]
    obj: Any

    def __repr__(self) -> str:
        return f"<built-in method {self.name}>"


class UserFunction(Record):
    _fields = ("name", "node", "defaults", "closure")
    _defaults = {"closure": None}
    name: str
    node: ast.FunctionDef
    defaults: dict[str, Any]
    closure: dict[str, Any] | None

    def __repr__(self) -> str:
        return f"<function {self.name}>"


class FunctionClass(Record):
    """`class F(torch.autograd.Function)` with static forward/backward, used as `F.apply`."""

    _fields = ("name", "forward", "backward")
    name: str
    forward: UserFunction
    backward: UserFunction

    def __repr__(self) -> str:
        return f"<class '{self.name}'>"


class Ctx:
    """The `ctx` of a custom `torch.autograd.Function`."""

    def __init__(self) -> None:
        self.saved_tensors: tuple = ()
        self.attrs: dict[str, Any] = {}
        self.needs_input_grad: tuple = ()

    def save_for_backward(self, *tensors: Any) -> None:
        self.saved_tensors = tuple(tensors)

    def mark_non_differentiable(self, *a: Any) -> None:
        pass

    def set_materialize_grads(self, v: bool) -> None:
        pass


class _Return(Exception):
    def __init__(self, value: Any):
        self.value = value


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


# --- the torch namespace ----------------------------------------------------------------------

_DTYPES = {
    "float32": np.float32,
    "float": np.float32,
    "float64": np.float64,
    "double": np.float64,
    "int64": np.int64,
    "long": np.int64,
    "int32": np.int32,
    "int": np.int32,
    "bool": np.bool_,
    "float16": np.float32,
    "half": np.float32,
}


def _build_namespaces() -> dict[str, Namespace]:
    dtypes = {k: DType(k, np.dtype(v)) for k, v in _DTYPES.items()}
    functional_members: dict[str, Any] = dict(names.FUNCTIONS)
    nn_functional = Namespace("torch.nn.functional", functional_members)
    nn = Namespace("torch.nn", {**names.MODULES, "functional": nn_functional})
    autograd = Namespace(
        "torch.autograd",
        {
            "Variable": K.Variable,
            "grad": _autograd_grad,
            "backward": _autograd_backward,
            "Function": _FUNCTION_BASE,
            "functional": Namespace("torch.autograd.functional", {}),
        },
    )
    torch = Namespace(
        "torch",
        {
            **names.FUNCTIONS,
            **dtypes,
            "nn": nn,
            "autograd": autograd,
            "no_grad": None,
            "Size": Builtin("torch.Size", _size_builtin),
            "pi": math.pi,
            "e": math.e,
            "inf": math.inf,
            "nan": math.nan,
            "set_default_dtype": _set_default_dtype,
            "get_default_dtype": lambda: DType(str(Settings.default_dtype), Settings.default_dtype),
        },
    )
    torch.members.pop("no_grad")
    numpy = Namespace(
        "numpy",
        {
            "array": K.tensor,
            "asarray": K.tensor,
            "float32": dtypes["float32"],
            "float64": dtypes["float64"],
            "pi": math.pi,
            "e": math.e,
            "zeros": K.zeros,
            "ones": K.ones,
            "exp": A.exp,
            "log": A.log,
            "sqrt": A.sqrt,
            "tanh": A.tanh,
            "sin": A.sin,
            "cos": A.cos,
            "dot": F.dot,
            "matmul": A.matmul,
            "sum": F.sum,
            "mean": F.mean,
            "arange": K.arange,
            "linspace": K.linspace,
            "eye": K.eye,
        },
    )
    return {
        "torch": torch,
        "nn": nn,
        "F": nn_functional,
        "autograd": autograd,
        "numpy": numpy,
        "math": Namespace("math", _MATH),
    }


def _math_fn(f: Callable[..., float], name: str) -> Builtin:
    """A `math` function on Python numbers (or one-element tensors, as Python converts them)."""

    def call(*args: Any) -> float:
        vals = []
        for a in args:
            if isinstance(a, Tensor):
                a = a.item()
            if isinstance(a, bool) or not isinstance(a, (int, float)):
                raise GradcliError(
                    f"math.{name}() takes numbers, not {typename(a)}",
                    hint=f"for tensors use torch.{name}(x)",
                )
            vals.append(a)
        try:
            return f(*vals)
        except (ValueError, OverflowError) as e:
            raise GradcliError(f"math.{name}(): {e}") from None

    return Builtin(f"math.{name}", call)


_MATH: dict[str, Any] = {
    "pi": math.pi,
    "e": math.e,
    "tau": math.tau,
    "inf": math.inf,
    "nan": math.nan,
    **{
        n: _math_fn(getattr(math, n), n)
        for n in (
            "sqrt",
            "exp",
            "log",
            "log10",
            "log2",
            "log1p",
            "sin",
            "cos",
            "tan",
            "tanh",
            "atan",
            "asin",
            "acos",
            "sinh",
            "cosh",
            "floor",
            "ceil",
            "fabs",
            "erf",
            "isfinite",
            "isnan",
        )
    },
}


_FUNCTION_BASE = Namespace("torch.autograd.Function", {})


def _set_default_dtype(d: Any) -> None:
    d = d.np if isinstance(d, DType) else d  # calls pass torch dtypes as NumPy ones
    if not isinstance(d, np.dtype) or d.kind != "f":
        raise GradcliError(
            "only floating-point types are supported as the default type",
            expected="torch.float32 or torch.float64",
        )
    K.set_default_dtype(d)


def _autograd_grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any = None,
    retain_graph: Any = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: Any = None,
    is_grads_batched: bool = False,
    materialize_grads: bool = False,
) -> tuple:
    return autograd.grad(
        outputs,
        inputs,
        grad_outputs,
        retain_graph=retain_graph,
        create_graph=create_graph,
        allow_unused=allow_unused,
        materialize_grads=materialize_grads,
    )


def _autograd_backward(
    tensors: Any,
    grad_tensors: Any = None,
    retain_graph: Any = None,
    create_graph: bool = False,
    inputs: Any = None,
) -> None:
    autograd.backward(
        tensors,
        grad_tensors,
        retain_graph=retain_graph,
        create_graph=create_graph,
        inputs=_tensors_arg(inputs, "inputs"),
    )


def _tensors_arg(v: Any, what: str) -> list[Tensor] | None:
    """`inputs=`: a Tensor or a list of Tensors (None: not given)."""
    if v is None:
        return None
    items = [v] if isinstance(v, Tensor) else list(v) if isinstance(v, (list, tuple)) else None
    if items is None or not all(isinstance(t, Tensor) for t in items):
        raise GradcliError(f"{what} must be a Tensor or a list of Tensors", found=typename(v))
    return items


def _tensor_backward(
    t: Tensor,
    gradient: Any = None,
    retain_graph: Any = None,
    create_graph: bool = False,
    inputs: Any = None,
    retain_variables: Any = None,
) -> None:
    # `retain_variables` is PyTorch 0.3's name for retain_graph (seen in older snippets).
    if retain_graph is None and retain_variables is not None:
        retain_graph = retain_variables
    if gradient is not None and not isinstance(gradient, Tensor):
        # A number or a (nested) list literal: a constant tensor, as anywhere in a program.
        gradient = as_tensor(gradient, like=t)
    autograd.backward(
        [t],
        [gradient],
        retain_graph=retain_graph,
        create_graph=create_graph,
        inputs=_tensors_arg(inputs, "inputs"),
    )


def _tolist(t: Tensor) -> Any:
    limits.LIST_ITEMS.check(t.data.size, "the number of items tolist() would make")
    return t.data.tolist()


# Tensor properties a program may read (and the few it may assign).
def _grad_fn(t: Tensor) -> Any:
    return None if t.node is None else GradFn(t.node.name())


class GradFn(Record):
    _fields = ("name",)
    name: str

    def __repr__(self) -> str:
        return f"<{self.name} object>"


def _data_alias(t: Tensor) -> Tensor:
    """`x.data`: a tensor sharing x's memory, outside the graph (as PyTorch)."""
    alias = Tensor.__new__(Tensor)
    alias.data = t.data
    alias.requires_grad = False
    alias.grad = None
    alias.node = None
    alias.retains_grad = False
    alias.name = None
    return alias


TENSOR_PROPERTIES: dict[str, Callable[[Tensor], Any]] = {
    "shape": lambda t: Size(t.shape),
    "grad": lambda t: t.grad,
    "data": _data_alias,
    "requires_grad": lambda t: t.requires_grad,
    "is_leaf": lambda t: t.node is None,
    "grad_fn": _grad_fn,
    "T": F.T,
    "mT": F.mT,
    "ndim": lambda t: t.ndim,
    "dtype": lambda t: DType(
        {"float32": "float32", "float64": "float64", "int64": "int64", "bool": "bool"}.get(
            t.dtype.name, t.dtype.name
        ),
        t.dtype,
    ),
    "device": lambda t: "cpu",
    "is_cuda": lambda t: False,
}

TENSOR_METHODS: dict[str, Callable[..., Any]] = {
    **names.METHODS,
    "backward": _tensor_backward,
    "tolist": _tolist,
}

BUILTINS: dict[str, Any] = {}


def _builtin_range(*args: Any) -> range:
    if not 1 <= len(args) <= 3:
        raise GradcliError(f"range expected 1 to 3 arguments, got {len(args)}")
    for a in args:
        if isinstance(a, bool) or not isinstance(a, int):
            raise GradcliError(
                f"range() takes integers, not {typename(a)}", hint="use int(...) to convert"
            )
    if len(args) == 3 and args[2] == 0:
        raise GradcliError("range() arg 3 must not be zero")
    return range(*args)


def _range_len(r: range) -> int:
    """len(r), also for a range longer than sys.maxsize (where len() raises)."""
    if r.step > 0:
        n = (r.stop - r.start + r.step - 1) // r.step
    else:
        n = (r.start - r.stop - r.step - 1) // -r.step
    return max(0, n)


def _length(v: Any) -> int | None:
    """How many items iterating `v` gives, or None if `v` is not iterable."""
    if isinstance(v, range):
        return _range_len(v)
    if isinstance(v, (list, tuple, str)):
        return len(v)
    if isinstance(v, Tensor):
        return v.shape[0] if v.ndim else None
    return None


def _builtin_len(v: Any) -> int:
    if isinstance(v, Tensor):
        return len(v)
    n = _length(v)
    if n is None:
        raise GradcliError(f"object of type '{typename(v)}' has no len()")
    return n


def _num(v: Any, conv: Callable[[Any], Any]) -> Any:
    name = conv.__name__
    if isinstance(v, Tensor):
        v = v.item()
    elif isinstance(v, str):
        try:
            return _int_check(conv(v.strip()))
        except ValueError:
            raise GradcliError(f"could not convert string to {name}: {_short(repr(v))}") from None
    if isinstance(v, (int, float, bool)):
        try:
            return _int_check(conv(v))
        except (OverflowError, ValueError):
            raise GradcliError(
                f"cannot convert {v} to an integer", hint="the value is not finite"
            ) from None
    raise GradcliError(
        f"{name}() argument must be a number, a string or a one-element tensor, not {typename(v)}"
    )


def _minmax(which: Callable[..., Any], name: str) -> Callable[..., Any]:
    def f(*args: Any) -> Any:
        items = (
            _seq(args[0], f"{name}()")
            if len(args) == 1 and not isinstance(args[0], Tensor)
            else list(args)
        )
        if not items:
            raise GradcliError(f"{name}() arg is an empty sequence")
        if any(isinstance(i, Tensor) for i in items):
            if len(items) == 1 and isinstance(items[0], Tensor):
                return (F.max if name == "max" else F.min)(items[0])
            raise GradcliError(
                f"Python's {name}() of tensors is ambiguous",
                hint=f"use torch.{name}imum(a, b) or x.{name}()",
            )
        for i in items:
            _check_structure(i, f"{name}()")
        try:
            return which(items)
        except TypeError as e:
            raise GradcliError(f"{name}(): {e}") from None

    return f


def _builtin_sum(items: Any, start: Any = 0) -> Any:
    total = start
    for v in _seq(items, "sum()"):
        total = _binop(ast.Add(), total, v)
    return total


def _builtin_round(v: Any, nd: Any = None) -> Any:
    x = v.item() if isinstance(v, Tensor) else v
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise GradcliError(f"round() takes a number, not {typename(x)}")
    if nd is None:
        if isinstance(x, float) and not math.isfinite(x):
            raise GradcliError(f"cannot round {x} to an integer", hint="the value is not finite")
        return round(x)
    if isinstance(nd, bool) or not isinstance(nd, int):
        raise GradcliError(f"round(): ndigits must be an integer, not {typename(nd)}")
    # Beyond +-400 digits every finite float and every int gradcli allows rounds the same, and
    # round(int, -10**12) would compute 10**10**12.
    return round(x, max(-400, min(400, nd)))


def _builtin_abs(v: Any) -> Any:
    if isinstance(v, Tensor):
        return A.abs(v)
    if isinstance(v, (int, float)):
        return abs(v)
    raise GradcliError(f"bad operand type for abs(): '{typename(v)}'")


def _seq(v: Any, what: str) -> list:
    """The items of `v` as a list (checked against LIST_ITEMS before they are made)."""
    n = _length(v)
    if n is None:
        if isinstance(v, Tensor):
            raise GradcliError("iteration over a 0-d tensor")
        raise GradcliError(f"{what}: '{typename(v)}' object is not iterable")
    limits.LIST_ITEMS.check(n, f"the number of items for {what}")
    if isinstance(v, Tensor):
        return [I.getitem(v, i) for i in range(n)]
    return list(v)


def _iterate(v: Any, what: str) -> Any:
    """The items of `v`, one at a time (a `for` loop makes none of them in advance)."""
    if isinstance(v, (range, list, tuple, str)):
        return v
    if isinstance(v, Tensor):
        if v.ndim == 0:
            raise GradcliError("iteration over a 0-d tensor")
        return (I.getitem(v, i) for i in range(v.shape[0]))
    raise GradcliError(f"{what}: '{typename(v)}' object is not iterable")


def _check_structure(v: Any, what: str, tensor_cost: int = 1) -> None:
    """Lists and tuples can nest and share items, so that walking one (to print it, compare it
    or turn it into a tensor) may visit far more items than were ever made: `l = [l, l]` ten
    times over is 2**10 items. Count the visits (without making them) first."""
    if not isinstance(v, (list, tuple)):
        return
    budget = limits.LIST_ITEMS.value
    depth_limit = limits.NESTING.value
    count = 0
    stack: list[tuple[Any, int]] = [(v, 1)]
    while stack:
        x, depth = stack.pop()
        if depth > depth_limit:
            raise LimitError(
                f"{what}: the list is nested over {depth_limit} levels deep",
                expected=f"at most {depth_limit} levels ({limits.NESTING.name})",
                hint=f"raise it with the environment variable {limits.NESTING.env}=N if you "
                "need more",
            )
        count += len(x)
        for e in x:
            if isinstance(e, (list, tuple)):
                stack.append((e, depth + 1))
            elif isinstance(e, Tensor):
                count += tensor_cost
        if count > budget:
            limits.LIST_ITEMS.check(count, f"the number of items {what} would visit")


def _size_builtin(s: Any = ()) -> Size:
    items = _seq(s, "torch.Size()")
    for i in items:
        if isinstance(i, bool) or not isinstance(i, int):
            raise GradcliError(f"torch.Size() takes integers, not {typename(i)}")
    return Size(tuple(items))


def _builtin_str(v: Any = "") -> str:
    _check_structure(v, "str()", tensor_cost=100)
    text = format_value(v)
    limits.STRING_CHARS.check(len(text), "the length of the string")
    return text


def _short(text: str, n: int = 200) -> str:
    text = text.strip().splitlines()[0] if text.strip() else text
    return text if len(text) <= n else text[: n - 1] + "…"


BUILTINS.update(
    {
        "range": Builtin("range", _builtin_range),
        "len": Builtin("len", _builtin_len),
        "float": Builtin("float", lambda v=0.0: _num(v, float)),
        "int": Builtin("int", lambda v=0: _num(v, int)),
        "bool": Builtin("bool", lambda v=False: bool(v)),
        "abs": Builtin("abs", _builtin_abs),
        "min": Builtin("min", _minmax(min, "min")),
        "max": Builtin("max", _minmax(max, "max")),
        "sum": Builtin("sum", _builtin_sum),
        "round": Builtin("round", _builtin_round),
        "list": Builtin("list", lambda v=(): _seq(v, "list()")),
        "tuple": Builtin("tuple", lambda v=(): tuple(_seq(v, "tuple()"))),
        "enumerate": Builtin(
            "enumerate", lambda v, start=0: list(enumerate(_seq(v, "enumerate()"), _index(start)))
        ),
        "zip": Builtin("zip", lambda *vs: list(zip(*[_seq(v, "zip()") for v in vs]))),
        "str": Builtin("str", _builtin_str),
        "None": None,
        "True": True,
        "False": False,
        # `if __name__ == "__main__":` in pasted scripts.
        "__name__": "__main__",
    }
)


def _index(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise GradcliError(f"expected an integer, not {typename(v)}")
    return v


_IGNORED_MODULES = ("torch", "numpy", "math")


# --- the program --------------------------------------------------------------------------------


class Run(Record):
    """What executing a program leaves behind."""

    _fields = ("program", "env", "tensors", "last_assigned", "output", "assigned_order", "warnings")
    _defaults = {"assigned_order": list, "warnings": list}
    program: Program
    env: dict[str, Any]
    tensors: dict[str, Tensor]
    last_assigned: str | None
    output: list[str]
    assigned_order: list[str]
    # Things a user should know that are not errors (non-finite values), as full messages.
    warnings: list[str]

    def tensor(self, name: str) -> Tensor:
        t = self.tensors.get(name)
        if t is None:
            raise GradcliError(
                f"no tensor named `{name}` in the program",
                found=f"`{name}`",
                expected="one of: " + ", ".join(f"`{n}`" for n in self.tensors)
                if self.tensors
                else "a tensor assigned to a name",
                hint=suggest(name, self.tensors),
            )
        return t

    def leaves(self) -> list[str]:
        """Names of the leaf tensors that require grad, in the order they were assigned."""
        seen: dict[int, bool] = {}
        out = []
        for name in self.assigned_order:
            t = self.tensors.get(name)
            if t is not None and t.requires_grad and t.node is None and id(t) not in seen:
                seen[id(t)] = True
                out.append(name)
        return out


class Program:
    """A parsed program: run it to get a `Run`."""

    def __init__(self, source: Source, tree: ast.Module):
        self.source = source
        self.tree = tree

    def run(
        self,
        *,
        overrides: dict[str, np.ndarray] | None = None,
        dtype: Any = None,
        seed: int = 0,
        echo: Callable[[str], None] | None = None,
    ) -> Run:
        return Interpreter(self, overrides or {}, dtype, seed, echo).execute()


def parse(text: str, name: str = "<program>") -> Program:
    """Parse program text (never running it): syntax and the whitelist are checked here."""
    if not isinstance(text, str):
        raise GradcliError(f"the program must be text, not {type(text).__name__}")
    if len(text) > limits.SOURCE_BYTES.value:  # a character is at least one byte
        limits.SOURCE_BYTES.check(len(text), "the program's size in bytes")
    limits.SOURCE_BYTES.check(
        len(text.encode("utf-8", errors="surrogatepass")), "the program's size in bytes"
    )
    source = Source(text, name)
    if "\x00" in text:
        raise GradcliError(
            "the program contains a NUL byte",
            span=_char_span(source, "\x00"),
            hint="is this a binary file?",
        )
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        bad = next(c for c in text if 0xD800 <= ord(c) <= 0xDFFF)
        raise GradcliError(
            "the program is not valid UTF-8 text",
            span=_char_span(source, bad),
            hint="save the program as UTF-8",
        ) from None
    try:
        tree = _ast_parse(text, name)
    except SyntaxError as e:
        msg = e.msg or "invalid syntax"
        raise GradcliError(
            f"syntax error: {msg}",
            span=_syntax_span(source, e),
            hint="gradcli programs are Python syntax (a PyTorch-like subset)",
        ) from None
    except (RecursionError, MemoryError):
        raise LimitError(
            "the program is nested too deeply to parse",
            expected=f"at most {limits.NESTING.value} levels of nesting ({limits.NESTING.name})",
            hint="split long or deeply nested expressions into several assignments",
        ) from None
    except (ValueError, OverflowError) as e:
        raise GradcliError(f"cannot parse the program: {e}") from None
    _validate(tree, source)
    return Program(source, tree)


def _ast_parse(text: str, name: str) -> ast.Module:
    import warnings

    with warnings.catch_warnings():
        # SyntaxWarnings ("invalid escape sequence") would print to stderr from inside ast.
        warnings.simplefilter("ignore")
        return ast.parse(text, filename=name)


def _char_span(source: Source, char: str) -> Span | None:
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


def _syntax_span(source: Source, e: SyntaxError) -> Span | None:
    """Where a SyntaxError points, in characters. (Python reports some offsets in characters and
    some, from its tokenizer, in UTF-8 bytes; on a line with non-ASCII text the same error in an
    ASCII copy of the program tells which character is meant.)"""
    if not e.lineno:
        return None
    line = source.line(e.lineno)
    offset, end_offset, end_lineno = e.offset, e.end_offset, e.end_lineno
    if not line.isascii():
        try:
            _ast_parse(_ascii_shadow(source.text), "<shadow>")
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
_ALLOWED: tuple[type, ...] = (
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

_REFUSED_HINTS: dict[type, str] = {
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
}


def _describe(node: ast.AST) -> str:
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
    }
    return names.get(type(node), f"`{type(node).__name__}`")


def _attr_span(source: Source, node: ast.Attribute) -> Span | None:
    """The span of `.attr` in `value.attr` (the part a user wrote wrong)."""
    span = source.span(node)
    if span is None or getattr(node, "end_lineno", None) != node.lineno:
        return span
    start = max(span.col, span.end_col - len(node.attr) - 1)
    return Span(source, span.line, start, span.end_col)


def _validate(tree: ast.Module, source: Source) -> None:
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
        if not isinstance(node, _ALLOWED):
            raise GradcliError(
                f"{_describe(node)} is not supported in gradcli programs",
                span=source.span(node),
                found=_describe(node),
                expected="assignments, expressions, bounded `for` loops, `if`, `def`, imports "
                "of torch/numpy",
                hint=_REFUSED_HINTS.get(type(node)),
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


# --- the interpreter ------------------------------------------------------------------------------


class Interpreter:
    def __init__(
        self,
        program: Program,
        overrides: dict[str, np.ndarray],
        dtype: Any,
        seed: int,
        echo: Callable[[str], None] | None,
    ):
        self.program = program
        self.source = program.source
        self.overrides = dict(overrides)
        self.applied: dict[str, bool] = {}
        self.echo = echo
        self.output: list[str] = []
        self.namespaces = _build_namespaces()
        self.globals: dict[str, Any] = {}
        self.tensors: dict[str, Tensor] = {}
        self.order: list[str] = []
        self.last_assigned: str | None = None
        self.iterations = 0
        self.call_depth = 0
        self.output_bytes = 0
        self.warnings: list[str] = []
        self.warned: set[str] = set()
        self.more_warnings = 0
        self.scopes: list[dict[str, Any]] = [self.globals]
        Settings.default_dtype = np.dtype(dtype or np.float64)
        K.manual_seed(seed)
        self.stmt_handlers: dict[type, Callable[[Any], None]] = {
            ast.Expr: self.s_expr,
            ast.Assign: self.s_assign,
            ast.AugAssign: self.s_augassign,
            ast.For: self.s_for,
            ast.If: self.s_if,
            ast.Pass: lambda n: None,
            ast.Break: self.s_break,
            ast.Continue: self.s_continue,
            ast.FunctionDef: self.s_def,
            ast.Return: self.s_return,
            ast.ClassDef: self.s_class,
            ast.Import: self.s_import,
            ast.ImportFrom: self.s_importfrom,
        }
        self.expr_handlers: dict[type, Callable[[Any], Any]] = {
            ast.Constant: self.e_constant,
            ast.Name: self.e_name,
            ast.List: self.e_list,
            ast.Tuple: self.e_tuple,
            ast.BinOp: self.e_binop,
            ast.UnaryOp: self.e_unary,
            ast.BoolOp: self.e_boolop,
            ast.Compare: self.e_compare,
            ast.Call: self.e_call,
            ast.Attribute: self.e_attribute,
            ast.Subscript: self.e_subscript,
            ast.IfExp: self.e_ifexp,
            ast.Slice: self.e_slice,
        }

    # -- driver --
    def execute(self) -> Run:
        import warnings

        with limits.BUDGET.run(), warnings.catch_warnings():
            # NumPy's RuntimeWarnings (overflow, division by zero) would print to stderr from
            # inside gradcli; non-finite results are reported by `check_finite` instead.
            warnings.simplefilter("ignore", RuntimeWarning)
            self.exec_block(self.program.tree.body)
        self.check_grads()
        for name in self.overrides:
            if name not in self.applied:
                raise GradcliError(
                    f"--set {name}: the program assigns no tensor named `{name}`",
                    found=f"`{name}`",
                    expected="one of: " + ", ".join(f"`{n}`" for n in self.tensors),
                    hint=suggest(name, self.tensors),
                )
        return Run(
            self.program,
            self.globals,
            self.tensors,
            self.last_assigned,
            self.output,
            self.order,
            self.warnings,
        )

    def span(self, node: ast.AST) -> Span | None:
        return self.source.span(node)

    def error(self, node: ast.AST, message: str, **kw: Any) -> GradcliError:
        return GradcliError(message, span=self.span(node), **kw)

    def exec_block(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            limits.BUDGET.tick()
            handler = self.stmt_handlers.get(type(stmt))
            if handler is None:  # _validate refuses these first; kept as a second line
                raise self.error(stmt, f"{_describe(stmt)} is not supported")
            try:
                handler(stmt)
            except GradcliError as e:
                raise e.with_span(self.span(stmt)) from None
            except RecursionError:
                raise self.error(
                    stmt,
                    "the program recursed too deeply",
                    hint="user functions may not call themselves without bound",
                ) from None
            except MemoryError:
                raise LimitError(
                    "out of memory",
                    span=self.span(stmt),
                    hint="the tensors are too large for this machine",
                ) from None
            except _CONVERTED as e:
                # A safety net: Python's own error on a value of the wrong type somewhere in
                # this statement. It is still the program's error (exit 1, with its place);
                # `--debug` shows where it came from.
                raise _user_error(e, self.span(stmt)) from e

    # -- statements --
    def s_expr(self, node: ast.Expr) -> None:
        self.eval(node.value)

    def s_assign(self, node: ast.Assign) -> None:
        value = self.eval(node.value)
        for target in node.targets:
            self.assign(target, value, node)

    def s_augassign(self, node: ast.AugAssign) -> None:
        t = node.target
        if isinstance(t, ast.Attribute) and t.attr == "data":
            # `W.data -= lr * W.grad`: in place on the data, outside the graph (as optimisers).
            owner = self.eval(t.value)
            if not isinstance(owner, Tensor):
                raise self.error(t, "`.data` belongs to tensors")
            alias = _data_alias(owner)
            new = self.binop(node.op, alias, self.eval(node.value), node)
            F.inplace_update(alias, new)
            return
        current = self.eval(_load(t))
        if isinstance(current, Tensor) and current.requires_grad and current.node is None:
            # `x += 1` is in place in PyTorch, which refuses it on a leaf that requires grad.
            raise self.error(
                node,
                "a leaf Variable that requires grad is being used in an in-place operation.",
                hint="write x = x + ... (a new tensor), or update x.data",
            )
        value = self.binop(node.op, current, self.eval(node.value), node)
        self.assign(t, value, node)

    def s_for(self, node: ast.For) -> None:
        items = self.eval(node.iter)
        n = _length(items)
        if n is not None and n > limits.LOOP_ITERATIONS.value:
            # Known in advance: refuse now rather than after a million iterations.
            raise LimitError(
                f"this loop would run {n:,} times, over the limit of "
                f"{limits.LOOP_ITERATIONS.value:,} loop iterations",
                span=self.span(node.iter),
                found=f"{n:,} iterations",
                expected=f"at most {limits.LOOP_ITERATIONS.value:,} "
                f"({limits.LOOP_ITERATIONS.name})",
                hint=f"raise it with the environment variable "
                f"{limits.LOOP_ITERATIONS.env}=N if you need more",
            )
        try:
            seq = _iterate(items, "for")
        except GradcliError as e:
            raise e.with_span(self.span(node.iter)) from None
        for item in seq:
            limits.BUDGET.tick()
            self.iterations += 1
            if self.iterations > limits.LOOP_ITERATIONS.value:
                limits.LOOP_ITERATIONS.check(self.iterations, "the number of loop iterations")
            self.assign(node.target, item, node)
            try:
                self.exec_block(node.body)
            except _Break:
                break
            except _Continue:
                continue
        else:
            self.exec_block(node.orelse)

    def s_if(self, node: ast.If) -> None:
        if self.truth(self.eval(node.test), node.test):
            self.exec_block(node.body)
        else:
            self.exec_block(node.orelse)

    def s_break(self, node: ast.Break) -> None:
        raise _Break()

    def s_continue(self, node: ast.Continue) -> None:
        raise _Continue()

    def s_return(self, node: ast.Return) -> None:
        if self.call_depth == 0:
            raise self.error(node, "`return` outside a function")
        raise _Return(None if node.value is None else self.eval(node.value))

    def s_def(self, node: ast.FunctionDef) -> None:
        for d in node.decorator_list:
            if not (isinstance(d, ast.Name) and d.id == "staticmethod"):
                raise self.error(
                    d,
                    "decorators are not supported",
                    hint="only @staticmethod inside a torch.autograd.Function",
                )
        a = node.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
            raise self.error(
                node,
                "functions take plain positional parameters in gradcli",
                hint="drop *args / **kwargs / keyword-only parameters",
            )
        defaults = {}
        names = [p.arg for p in a.args]
        for p, d in zip(names[len(names) - len(a.defaults) :], a.defaults):
            defaults[p] = self.eval(d)
        closure = None if len(self.scopes) == 1 else self.scopes[-1]
        self.bind(node.name, UserFunction(node.name, node, defaults, closure))

    def s_class(self, node: ast.ClassDef) -> None:
        bases = [self.eval(b) for b in node.bases]
        if len(bases) != 1 or bases[0] is not _FUNCTION_BASE or node.keywords:
            raise self.error(
                node,
                "classes are only supported in the torch.autograd.Function form",
                expected="class F(torch.autograd.Function): with static "
                "forward(ctx, ...) and backward(ctx, grad_output)",
            )
        methods: dict[str, UserFunction] = {}
        for stmt in node.body:
            if isinstance(stmt, ast.FunctionDef):
                self.s_def(stmt)
                methods[stmt.name] = self.scopes[-1].pop(stmt.name)
            elif isinstance(stmt, ast.Pass) or (
                isinstance(stmt, ast.Expr)
                and isinstance(stmt.value, ast.Constant)
                and isinstance(stmt.value.value, str)
            ):
                continue
            else:
                raise self.error(
                    stmt,
                    "a torch.autograd.Function class holds only its forward and backward methods",
                )
        for need in ("forward", "backward"):
            if need not in methods:
                raise self.error(
                    node,
                    f"class {node.name} has no static `{need}` method",
                    expected="forward(ctx, ...) and backward(ctx, grad_output)",
                )
        self.bind(node.name, FunctionClass(node.name, methods["forward"], methods["backward"]))

    def s_import(self, node: ast.Import) -> None:
        for alias in node.names:
            root = alias.name.split(".")[0]
            if root not in _IGNORED_MODULES:
                raise self.error(
                    node,
                    f"cannot import `{alias.name}`",
                    expected="imports of torch, numpy or math",
                    hint="gradcli programs cannot use other modules",
                )
            ns = self.module(alias.name, node)
            if alias.asname:
                self.bind(alias.asname, ns)
            else:
                self.bind(root, self.namespaces[root])

    def s_importfrom(self, node: ast.ImportFrom) -> None:
        mod = node.module or ""
        if mod.split(".")[0] not in _IGNORED_MODULES or node.level:
            raise self.error(
                node,
                f"cannot import from `{mod}`",
                expected="imports of torch, numpy or math",
            )
        ns = self.module(mod, node)
        for alias in node.names:
            if alias.name == "*":
                raise self.error(
                    node, "`import *` is not supported", hint="import the names you use"
                )
            if alias.name in ns.members:
                value = ns.members[alias.name]
            else:
                try:
                    value = self.module(f"{mod}.{alias.name}", node)
                except GradcliError:
                    raise self.error(
                        node,
                        f"cannot import name `{alias.name}` from `{mod}`",
                        hint=suggest(alias.name, ns.members),
                    ) from None
            self.bind(alias.asname or alias.name, value)

    def module(self, dotted: str, node: ast.AST) -> Namespace:
        parts = dotted.split(".")
        ns = self.namespaces[parts[0]]
        for p in parts[1:]:
            nxt = ns.members.get(p)
            if not isinstance(nxt, Namespace):
                if dotted.startswith("torch"):
                    # Other torch submodules (torch.optim, ...) are accepted and ignored.
                    return Namespace(dotted, {})
                raise self.error(node, f"unknown module `{dotted}`")
            ns = nxt
        return ns

    # -- binding and assignment --
    def bind(self, name: str, value: Any) -> None:
        self.scopes[-1][name] = value

    def assign(self, target: ast.AST, value: Any, stmt: ast.AST) -> None:
        if isinstance(target, ast.Name):
            if len(self.scopes) == 1 and isinstance(value, Tensor):
                value = self.record(target.id, value, target)
            self.bind(target.id, value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            items = (
                _seq(value, "cannot unpack")
                if not isinstance(value, (list, tuple))
                else list(value)
            )
            if len(items) != len(target.elts):
                raise self.error(
                    target,
                    f"cannot unpack {len(items)} values into {len(target.elts)} names",
                    found=f"{len(items)} values",
                    expected=f"{len(target.elts)}",
                    hint="a one-element tuple unpacks as `g, = ...`" if len(items) == 1 else None,
                )
            for t, v in zip(target.elts, items):
                self.assign(t, v, stmt)
        elif isinstance(target, ast.Attribute):
            self.assign_attribute(target, value)
        elif isinstance(target, ast.Subscript):
            owner = self.eval(target.value)
            if not isinstance(owner, Tensor):
                raise self.error(target, "only tensors support item assignment here")
            key = self.eval(target.slice)
            if owner.requires_grad and owner.node is None:
                raise self.error(
                    target,
                    "a leaf Variable that requires grad is being used in an in-place operation.",
                    hint="assign into a copy (y = x.clone(); y[...] = ...), or into x.data",
                )
            if owner.requires_grad or (isinstance(value, Tensor) and value.requires_grad):
                # Gradients must flow through the assignment (PyTorch's CopySlices): the name
                # is rebound to x with the region replaced.
                if not isinstance(target.value, ast.Name):
                    raise self.error(
                        target,
                        "assigning a value that requires grad into part of this expression is "
                        "not supported",
                        hint="assign into a named tensor: y[...] = value",
                    )
                self.assign(target.value, I.index_assign(owner, key, value), stmt)
                return
            idx = I.normalize_index(owner, key)
            if isinstance(value, Tensor):
                new = value.data
            else:
                _check_structure(value, "the assignment")
                new = data_array(value, owner.dtype) if isinstance(value, (list, tuple)) else value
                if not isinstance(new, (np.ndarray, int, float, bool)):
                    raise self.error(
                        target,
                        f"cannot assign a {typename(value)} into a tensor",
                        expected="a number or a tensor",
                    )
            try:
                owner.data[idx] = new
            except ValueError:
                owner.data = np.array(owner.data)
                try:
                    owner.data[idx] = new
                except (ValueError, TypeError, IndexError, OverflowError) as e:
                    raise self.error(target, f"cannot assign: {_short(str(e))}") from None
            except (TypeError, IndexError, OverflowError) as e:
                raise self.error(target, f"cannot assign: {_short(str(e))}") from None
        else:
            raise self.error(target, "cannot assign to this expression")

    def assign_attribute(self, target: ast.Attribute, value: Any) -> None:
        owner = self.eval(target.value)
        attr = target.attr
        if isinstance(owner, Ctx):
            owner.attrs[attr] = value
            return
        if not isinstance(owner, Tensor):
            raise self.error(target, f"cannot set attribute `{attr}` here")
        if attr == "grad":
            if value is not None and not isinstance(value, Tensor):
                raise self.error(target, "assigned grad expected to be a Tensor or None")
            if value is not None and value.shape != owner.shape:
                raise self.error(
                    target,
                    f"assigned grad has data of a different size "
                    f"({list(value.shape)} vs {list(owner.shape)})",
                )
            owner.grad = value
        elif attr == "data":
            v = value if isinstance(value, Tensor) else K.tensor(value)
            owner.data = np.array(v.data, dtype=owner.dtype)
        elif attr == "requires_grad":
            owner.requires_grad_(bool(value))
        else:
            raise self.error(
                target,
                f"cannot set attribute `{attr}` of a tensor",
                expected="`.grad`, `.data` or `.requires_grad`",
            )

    def record(self, name: str, t: Tensor, node: ast.AST) -> Tensor:
        """A top-level tensor assignment: apply `--set`, remember the name."""
        if name in self.overrides and name not in self.applied:
            new = self.overrides[name]
            if t.node is not None:
                raise self.error(
                    node,
                    f"--set {name}: `{name}` is computed by the program",
                    hint="--set replaces the data of tensors the program creates (leaves)",
                )
            if new.shape != t.shape:
                if new.size == t.data.size:
                    new = new.reshape(t.shape)
                else:
                    raise self.error(
                        node,
                        f"--set {name}: {new.size} values given but "
                        f"`{name}` has shape {list(t.shape)} ({t.data.size} "
                        f"elements)",
                    )
            t.data = np.array(new, dtype=t.dtype)
            self.applied[name] = True
        self.check_finite(f"`{name}`", t, node)
        if t.name is None:
            t.name = name
        self.tensors[name] = t
        if name in self.order:
            self.order.remove(name)
        self.order.append(name)
        self.last_assigned = name
        return t

    # -- expressions --
    def eval(self, node: ast.AST) -> Any:
        handler = self.expr_handlers.get(type(node))
        if handler is None:
            raise self.error(
                node,
                f"{_describe(node)} is not supported here",
                hint=_REFUSED_HINTS.get(type(node)),
            )
        return handler(node)

    def e_constant(self, node: ast.Constant) -> Any:
        return node.value

    def e_name(self, node: ast.Name) -> Any:
        name = node.id
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        if len(self.scopes) > 1:
            closure = getattr(self, "_closure", None)
            if closure and name in closure:
                return closure[name]
        if name in BUILTINS:
            return BUILTINS[name]
        if name == "print":
            return Builtin("print", self.do_print)
        if name in self.namespaces:
            return self.namespaces[name]
        if name == "np":
            return self.namespaces["numpy"]
        if name in names.FUNCTIONS:
            return names.FUNCTIONS[name]
        known = list(self.globals) + list(names.FUNCTIONS) + list(BUILTINS) + ["print", "torch"]
        raise self.error(
            node,
            f"name `{name}` is not defined",
            found=f"`{name}`",
            expected="a name assigned earlier in the program, or a torch function",
            hint=suggest(name, known),
        )

    def e_list(self, node: ast.List) -> list:
        return [self.eval(e) for e in node.elts]

    def e_tuple(self, node: ast.Tuple) -> tuple:
        return tuple(self.eval(e) for e in node.elts)

    def e_slice(self, node: ast.Slice) -> slice:
        parts = [None if p is None else self.eval(p) for p in (node.lower, node.upper, node.step)]
        for p, sub in zip(parts, (node.lower, node.upper, node.step)):
            if p is not None and not (isinstance(p, int) and not isinstance(p, bool)):
                if isinstance(p, Tensor) and p.data.size == 1 and p.dtype.kind in "iu":
                    continue
                raise self.error(sub, f"slice indices must be integers or None, not {typename(p)}")
        return slice(*[int(p.item()) if isinstance(p, Tensor) else p for p in parts])

    def e_ifexp(self, node: ast.IfExp) -> Any:
        return (
            self.eval(node.body)
            if self.truth(self.eval(node.test), node.test)
            else self.eval(node.orelse)
        )

    def truth(self, v: Any, node: ast.AST) -> bool:
        if isinstance(v, Tensor):
            try:
                return bool(v)
            except GradcliError as e:
                raise e.with_span(self.span(node)) from None
        if isinstance(v, (int, float, bool, str, list, tuple, type(None), range)):
            return bool(v)
        return True

    def e_boolop(self, node: ast.BoolOp) -> Any:
        value: Any = None
        for e in node.values:
            value = self.eval(e)
            t = self.truth(value, e)
            if isinstance(node.op, ast.And) and not t:
                return value
            if isinstance(node.op, ast.Or) and t:
                return value
        return value

    def e_unary(self, node: ast.UnaryOp) -> Any:
        v = self.eval(node.operand)
        if isinstance(node.op, ast.Not):
            return not self.truth(v, node.operand)
        if isinstance(v, bool) or not isinstance(v, (int, float, Tensor)):
            raise self.error(node, f"bad operand type for unary operator: '{typename(v)}'")
        return -v if isinstance(node.op, ast.USub) else v

    def e_binop(self, node: ast.BinOp) -> Any:
        return self.binop(node.op, self.eval(node.left), self.eval(node.right), node)

    def binop(self, op: ast.operator, a: Any, b: Any, node: ast.AST) -> Any:
        try:
            return _binop(op, a, b)
        except GradcliError as e:
            raise e.with_span(self.span(node)) from None
        except ZeroDivisionError:
            raise self.error(node, "division by zero (of Python numbers)") from None
        except OverflowError:
            raise self.error(node, "number too large") from None
        except _CONVERTED as e:
            raise _user_error(e, self.span(node)) from e

    def e_compare(self, node: ast.Compare) -> Any:
        left = self.eval(node.left)
        result: Any = True
        for op, right_node in zip(node.ops, node.comparators):
            right = self.eval(right_node)
            try:
                r = _compare(op, left, right)
            except GradcliError as e:
                raise e.with_span(self.span(node)) from None
            if len(node.ops) == 1:
                return r
            if not self.truth(r, node):
                return False
            left = right
            result = r
        return result

    def e_attribute(self, node: ast.Attribute) -> Any:
        owner = self.eval(node.value)
        return self.attribute(owner, node.attr, node)

    def attribute(self, owner: Any, attr: str, node: ast.AST) -> Any:
        if isinstance(owner, Tensor):
            if attr in TENSOR_PROPERTIES:
                return TENSOR_PROPERTIES[attr](owner)
            if attr in TENSOR_METHODS:
                return BoundMethod(attr, TENSOR_METHODS[attr], owner)
            raise self.error(
                node,
                f"'Tensor' object has no attribute '{attr}'",
                found=f"`.{attr}`",
                expected="a tensor method or property (see `gradcli ops`)",
                hint=suggest(attr, list(TENSOR_METHODS) + list(TENSOR_PROPERTIES)),
            )
        if isinstance(owner, Namespace):
            if attr in owner.members:
                return owner.members[attr]
            raise self.error(
                node,
                f"`{owner.name}.{attr}` is not supported by gradcli",
                found=f"`{owner.name}.{attr}`",
                expected="a supported operation (see `gradcli ops`)",
                hint=suggest(attr, owner.members),
            )
        if isinstance(owner, F.MinMax) and attr in ("values", "indices"):
            return owner.values if attr == "values" else owner.indices
        if isinstance(owner, FunctionClass) and attr == "apply":
            return Builtin(f"{owner.name}.apply", lambda *a: self.apply_function(owner, a, node))
        if isinstance(owner, Ctx):
            if attr == "saved_tensors" or attr == "saved_variables":
                return owner.saved_tensors
            if attr == "needs_input_grad":
                return owner.needs_input_grad
            if attr in ("save_for_backward", "mark_non_differentiable", "set_materialize_grads"):
                return Builtin(attr, getattr(owner, attr))
            if attr in owner.attrs:
                return owner.attrs[attr]
            raise self.error(
                node,
                f"ctx has no attribute `{attr}`",
                hint="set it in forward first (ctx.name = value)",
            )
        if isinstance(owner, GradFn) and attr == "name":
            return BoundMethod("name", lambda g: g.name, owner)
        if isinstance(owner, DType) and attr == "is_floating_point":
            return owner.np.kind == "f"
        raise self.error(
            node, f"'{typename(owner)}' object has no attribute '{attr}'", found=f"`.{attr}`"
        )

    def e_subscript(self, node: ast.Subscript) -> Any:
        owner = self.eval(node.value)
        key = self.eval(node.slice)
        if isinstance(owner, Tensor):
            try:
                return I.getitem(owner, key)
            except GradcliError as e:
                raise e.with_span(self.span(node)) from None
            except _CONVERTED as e:
                raise _user_error(e, self.span(node), "invalid index") from e
        if isinstance(owner, (list, tuple, str, range)):
            if isinstance(key, Tensor) and key.data.size == 1 and key.dtype.kind in "iu":
                key = int(key.item())
            if isinstance(key, bool) or not isinstance(key, (int, slice)):
                raise self.error(
                    node,
                    f"{typename(owner)} indices must be integers or slices, not {typename(key)}",
                )
            try:
                return owner[key]
            except IndexError:
                raise self.error(
                    node,
                    f"{typename(owner)} index out of range",
                    hint=f"it has {len(owner)} items",
                ) from None
        raise self.error(node, f"'{typename(owner)}' object is not subscriptable")

    def e_call(self, node: ast.Call) -> Any:
        callee = self.eval(node.func)
        args = [self.eval(a) for a in node.args]
        kwargs: dict[str, Any] = {}
        for k in node.keywords:
            if k.arg is None:
                raise self.error(
                    k, "`**` unpacking is not supported", hint="pass keyword arguments one by one"
                )
            kwargs[k.arg] = self.eval(k.value)
        try:
            return self.call(callee, args, kwargs, node)
        except GradcliError as e:
            raise e.with_span(self.span(node)) from None

    def call(self, callee: Any, args: list, kwargs: dict, node: ast.AST) -> Any:
        if isinstance(callee, BoundMethod):
            return _checked_call(
                callee.fn, [callee.obj, *args], kwargs, callee.name, node, self, bound=True
            )
        if isinstance(callee, Builtin):
            return _checked_call(callee.fn, args, kwargs, callee.name, node, self)
        if isinstance(callee, UserFunction):
            return self.call_user(callee, args, kwargs, node)
        if isinstance(callee, surface_nn.Module):
            return _checked_call(callee.__call__, args, kwargs, callee.name, node, self)
        if isinstance(callee, FunctionClass):
            raise self.error(
                node,
                f"call {callee.name}.apply(...), not {callee.name}(...)",
                hint="custom autograd Functions are used through .apply",
            )
        if callable(callee) and not isinstance(callee, (type, Namespace)):
            return _checked_call(callee, args, kwargs, _call_name(node, callee), node, self)
        raise self.error(node, f"'{typename(callee)}' object is not callable")

    def do_print(
        self, *args: Any, sep: Any = " ", end: Any = "\n", file: Any = None, flush: bool = False
    ) -> None:
        if file is not None:
            raise GradcliError(
                "print(file=...) is not supported: a gradcli program prints "
                "only to standard output",
                hint="drop the file= argument",
            )
        for what, v in (("sep", sep), ("end", end)):
            if v is not None and not isinstance(v, str):
                raise GradcliError(f"{what} must be None or a string, not {typename(v)}")
        for a in args:
            _check_structure(a, "print()", tensor_cost=100)
        sep = " " if sep is None else sep
        end = "\n" if end is None else end
        text = sep.join(format_value(a) for a in args) + end
        self.output_bytes += len(text)
        limits.OUTPUT_BYTES.check(
            self.output_bytes, "the output the program prints, in characters,"
        )
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate ("\ud800") cannot be written out
            text = text.encode("utf-8", "backslashreplace").decode("utf-8")
        self.output.append(text)
        if self.echo is not None:
            self.echo(text)

    # -- warnings --
    MAX_WARNINGS = 5

    def warn(self, message: str, node: ast.AST | None = None) -> None:
        """A warning for the user (the CLI writes them to stderr after the run)."""
        if len(self.warnings) < self.MAX_WARNINGS:
            span = None if node is None else self.span(node)
            where = f"{span.where()}: " if span is not None else ""
            self.warnings.append(f"{where}warning: {message}")
        else:
            self.more_warnings += 1

    def check_finite(self, label: str, t: Tensor, node: ast.AST | None) -> None:
        """Warn (once per label) when a tensor holds NaN or infinity. They are results, as
        PyTorch computes them (log(0) = -inf, 0/0 = nan, exp(1000) = inf), not errors."""
        if t.dtype.kind != "f" or label in self.warned:
            return
        data = t.data
        if math.isfinite(data.item()) if data.size == 1 else np.isfinite(data).all():
            return
        self.warned.add(label)
        nan = int(np.isnan(data).sum())
        inf = int(np.isinf(data).sum())
        parts = ([f"{nan} nan"] if nan else []) + ([f"{inf} inf"] if inf else [])
        self.warn(
            f"{label} has non-finite values ({', '.join(parts)} of {data.size}): log, sqrt "
            "or division at 0, or an overflow? (PyTorch computes the same)",
            node,
        )

    def check_grads(self) -> None:
        for name, t in self.tensors.items():
            if isinstance(t.grad, Tensor):
                self.check_finite(f"`{name}.grad`", t.grad, None)
        if self.more_warnings:
            self.warnings.append(f"warning: {self.more_warnings} more warning(s) like these")
            self.more_warnings = 0

    # -- user functions --
    def call_user(self, f: UserFunction, args: list, kwargs: dict, node: ast.AST) -> Any:
        backward_fn = self.globals.get(f"{f.name}_backward")
        if (
            isinstance(backward_fn, UserFunction)
            and f.closure is None
            and not f.name.endswith("_backward")
        ):
            return self.custom_gradient(f, backward_fn, args, kwargs, node)
        return self.invoke(f, args, kwargs, node)

    def invoke(
        self, f: UserFunction, args: list, kwargs: dict, node: ast.AST, prefix: tuple = ()
    ) -> Any:
        params = [p.arg for p in f.node.args.args]
        args = list(prefix) + list(args)
        if len(args) > len(params):
            raise self.error(
                node,
                f"{f.name}() takes {len(params)} positional arguments but {len(args)} were given",
            )
        local: dict[str, Any] = dict(zip(params, args))
        for k, v in kwargs.items():
            if k not in params:
                raise self.error(
                    node,
                    f"{f.name}() got an unexpected keyword argument '{k}'",
                    hint=suggest(k, params),
                )
            if k in local:
                raise self.error(node, f"{f.name}() got multiple values for argument '{k}'")
            local[k] = v
        for p in params:
            if p not in local:
                if p in f.defaults:
                    local[p] = f.defaults[p]
                else:
                    raise self.error(node, f"{f.name}() missing required argument: '{p}'")
        self.call_depth += 1
        if self.call_depth > limits.CALL_DEPTH.value:
            self.call_depth = 0
            limits.CALL_DEPTH.check(limits.CALL_DEPTH.value + 1, "the depth of function calls")
        saved_closure = getattr(self, "_closure", None)
        self._closure = f.closure
        self.scopes.append(local)
        try:
            self.exec_block(f.node.body)
        except _Return as r:
            return r.value
        except (_Break, _Continue):
            raise self.error(node, "`break`/`continue` outside a loop") from None
        finally:
            self.scopes.pop()
            self._closure = saved_closure
            self.call_depth = max(0, self.call_depth - 1)
        return None

    def custom_gradient(
        self, f: UserFunction, fb: UserFunction, args: list, kwargs: dict, node: ast.AST
    ) -> Any:
        """`f` with a companion `f_backward(inputs..., grad)`: f's VJP is the user's."""
        inputs = [a for a in args if isinstance(a, Tensor)]

        def forward() -> Any:
            return self.invoke(f, args, kwargs, node)

        def vjp(g: Tensor) -> Any:
            return self.invoke(fb, list(args) + [g], {}, node)

        return custom_apply(f.name, inputs, forward, vjp, n_inputs=len(inputs))

    def apply_function(self, cls: FunctionClass, args: tuple, node: ast.AST) -> Any:
        ctx = Ctx()
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        tensor_pos = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        inputs = [args[i] for i in tensor_pos]

        def forward() -> Any:
            return self.invoke(cls.forward, list(args), {}, node, prefix=(ctx,))

        def vjp(g: Tensor) -> Any:
            grads = self.invoke(cls.backward, [g], {}, node, prefix=(ctx,))
            grads = grads if isinstance(grads, tuple) else (grads,)
            if len(grads) != len(args):
                raise self.error(
                    node,
                    f"function {cls.name}Backward returned an incorrect "
                    f"number of gradients (expected {len(args)}, got "
                    f"{len(grads)})",
                )
            return tuple(grads[i] for i in tensor_pos)

        return custom_apply(
            cls.name, inputs, forward, vjp, n_inputs=len(inputs), label=f"{cls.name}Backward"
        )


def _load(target: ast.AST) -> ast.AST:
    """The same expression as an assignment target, for reading (`x += 1`)."""
    if isinstance(target, ast.Name):
        return ast.copy_location(ast.Name(id=target.id, ctx=ast.Load()), target)
    if isinstance(target, ast.Attribute):
        return ast.copy_location(
            ast.Attribute(value=target.value, attr=target.attr, ctx=ast.Load()), target
        )
    if isinstance(target, ast.Subscript):
        return ast.copy_location(
            ast.Subscript(value=target.value, slice=target.slice, ctx=ast.Load()), target
        )
    return target


_SIG_CACHE: dict[int, tuple[Any, Any]] = {}


def _checked_call(
    f: Callable[..., Any],
    args: list,
    kwargs: dict,
    name: str,
    node: ast.AST,
    interp: Interpreter,
    bound: bool = False,
) -> Any:
    """Call one of gradcli's functions with a program's arguments.

    The arguments are bound to the signature first, so that a wrong call is a clear user error.
    Then the arguments are untrusted values of any type, and an error that Python or NumPy
    raises on them (a TypeError, a ValueError...) is reported as the program's error, with the
    original exception kept as its cause (shown by `--debug`)."""
    import inspect

    entry = _SIG_CACHE.get(id(f))
    if entry is None or entry[0] is not f:
        try:
            sig = inspect.signature(f)
        except (TypeError, ValueError):
            sig = False
        if len(_SIG_CACHE) > 4096:
            _SIG_CACHE.clear()
        # The function is kept with its signature, so that its id cannot be reused meanwhile.
        entry = _SIG_CACHE[id(f)] = (f, sig)
    sig = entry[1]
    if sig:
        try:
            sig.bind(*args, **kwargs)
        except TypeError as e:
            shown = args[1:] if bound else args
            raise interp.error(
                node,
                f"{name}(): {e}",
                found=f"{len(shown)} positional argument(s)"
                + (f" and keywords {', '.join(kwargs)}" if kwargs else ""),
                expected=f"{name}{_public_sig(sig, bound)}",
            ) from None
    # torch dtypes are NumPy dtypes inside gradcli's functions (print shows them as torch's).
    if f != interp.do_print:
        args = [a.np if isinstance(a, DType) else a for a in args]
        kwargs = {k: v.np if isinstance(v, DType) else v for k, v in kwargs.items()}
    if not any(f is g for g in _TAKES_RANGES):
        for v in (*args, *kwargs.values()):
            if isinstance(v, range):
                # NumPy would make a list of it: no more items than a list may have.
                limits.LIST_ITEMS.check(
                    _range_len(v), f"the number of items of the range passed to {name}()"
                )
    try:
        return f(*args, **kwargs)
    except _CONVERTED as e:
        what = _short(str(e)) or type(e).__name__
        if isinstance(e, AttributeError):
            what = f"an argument has the wrong type ({what})"
        err = GradcliError(
            f"{name}(): {what}",
            found=", ".join(typename(a) for a in (args[1:] if bound else args)) or None,
            hint="check the arguments' types and values (see `gradcli ops`); if they look "
            "right, this is a gradcli bug: please report it (with --debug)",
        )
        err.cause = e
        raise err from e
    except MemoryError:
        raise LimitError(
            "out of memory", hint="the tensors are too large for this machine"
        ) from None


# What Python and NumPy raise on arguments of the wrong type or value. (RuntimeError,
# AssertionError, NameError... are not here: they can only be gradcli's own bugs.)
_CONVERTED = (
    TypeError,
    ValueError,
    AttributeError,
    IndexError,
    KeyError,
    OverflowError,
    ZeroDivisionError,
    FloatingPointError,
    np.linalg.LinAlgError,
    UnicodeError,
)


def _user_error(e: BaseException, span: Span | None, what: str | None = None) -> GradcliError:
    """Python's error on a program's value as the program's error, with its cause kept."""
    text = _short(str(e)) or type(e).__name__
    err = GradcliError(
        f"{what}: {text}" if what else text,
        span=span,
        hint="check the values' types; if they look right, this is a gradcli bug: please "
        "report it (with --debug)",
    )
    err.cause = e
    return err


# Functions that take a range as it is (they never make a list of it).
_TAKES_RANGES: set[Any] = {_builtin_len, BUILTINS["bool"].fn}


def _call_name(node: ast.AST, callee: Any) -> str:
    """How the program named the function it called (`torch.sum`), for messages."""
    func = getattr(node, "func", None)
    if isinstance(func, (ast.Name, ast.Attribute)):
        try:
            text = ast.unparse(func)
        except Exception:  # noqa: BLE001 - only a name for a message
            text = ""
        if 0 < len(text) <= 40:
            return text
    return getattr(callee, "__name__", "function").strip("_") or "function"


def _public_sig(sig: Any, bound: bool) -> str:
    params = list(sig.parameters.values())[1 if bound else 0 :]
    # Without type annotations: `(outputs, inputs, grad_outputs=None)` is what a user reads.
    shown = [str(p.replace(annotation=p.empty)) for p in params if not p.name.startswith("_")]
    return "(" + ", ".join(shown) + ")"


# --- Python-number and tensor arithmetic, with limits on integer growth -------------------------


def _int_check(v: Any) -> Any:
    if isinstance(v, int) and not isinstance(v, bool):
        limits.INT_BITS.check(v.bit_length(), "the size of an integer in bits")
    return v


def _binop(op: ast.operator, a: Any, b: Any) -> Any:
    if isinstance(a, Tensor) or isinstance(b, Tensor):
        table = _TENSOR_BINOPS.get(type(op))
        if table is None:
            raise GradcliError(
                f"operator {_OPNAMES.get(type(op), '?')} is not supported for tensors"
            )
        return table(a, b)
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return _seq_binop(op, a, b)
    if isinstance(a, str) or isinstance(b, str):
        if isinstance(op, ast.Add) and isinstance(a, str) and isinstance(b, str):
            limits.STRING_CHARS.check(len(a) + len(b), "the length of the string")
            return a + b
        raise GradcliError("string operations other than `+` are not supported")
    if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
        raise GradcliError(
            f"unsupported operand types for {_OPNAMES.get(type(op), '?')}: "
            f"'{typename(a)}' and '{typename(b)}'"
        )
    if isinstance(op, ast.Pow):
        if isinstance(a, int) and isinstance(b, int) and abs(a) >= 2 and b > 0:
            # a**b has about b*log2|a| bits: refuse a huge one before computing it.
            bits = b * math.log2(abs(a))
            if bits > limits.INT_BITS.value + 1:
                limits.INT_BITS.check(math.ceil(bits), "the size of an integer in bits")
        try:
            r = a**b
        except OverflowError:
            raise GradcliError("number too large (overflow)") from None
        if isinstance(r, complex):
            raise GradcliError(
                "a negative number to a fractional power is complex",
                hint="gradcli computes with real numbers",
            )
        return _int_check(r)
    if isinstance(op, ast.MatMult):
        raise GradcliError("`@` needs tensors")
    return _int_check(_PY_BINOPS[type(op)](a, b))


def _seq_binop(op: ast.operator, a: Any, b: Any) -> Any:
    if isinstance(op, ast.Add) and isinstance(a, (list, tuple)) and type(a) is type(b):
        limits.LIST_ITEMS.check(len(a) + len(b), f"the length of the {typename(a)}")
        return a + b
    if isinstance(op, ast.Mult):
        seq, n = (a, b) if isinstance(a, (list, tuple)) else (b, a)
        if isinstance(n, int) and not isinstance(n, bool):
            limits.LIST_ITEMS.check(len(seq) * max(n, 0), f"the length of the {typename(seq)}")
            return seq * n
    raise GradcliError(
        f"unsupported operand types for {_OPNAMES.get(type(op), '?')}: "
        f"'{typename(a)}' and '{typename(b)}'",
        hint="make tensors with torch.tensor(...) to compute with them",
    )


_PY_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
}
_TENSOR_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: A.add_t(a, b),
    ast.Sub: lambda a, b: A.sub_op(a, b),
    ast.Mult: lambda a, b: A.mul_t(a, b),
    ast.Div: lambda a, b: A.div_op(a, b),
    ast.Pow: lambda a, b: A.pow(a, b),
    ast.MatMult: lambda a, b: A.matmul(a, b),
}
_OPNAMES = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.MatMult: "@",
}


def _compare(op: ast.cmpop, a: Any, b: Any) -> Any:
    if isinstance(op, (ast.Is, ast.IsNot)):
        if b is not None and a is not None:
            raise GradcliError("`is` only compares with None")
        r = a is b
        return r if isinstance(op, ast.Is) else not r
    if isinstance(a, DType) and isinstance(b, DType) and isinstance(op, (ast.Eq, ast.NotEq)):
        return (a.np == b.np) == isinstance(op, ast.Eq)
    if isinstance(a, Tensor) or isinstance(b, Tensor):
        f = {
            ast.Lt: F.lt,
            ast.LtE: F.le,
            ast.Gt: F.gt,
            ast.GtE: F.ge,
            ast.Eq: F.eq,
            ast.NotEq: F.ne,
        }[type(op)]
        return f(a, b)
    ok = (int, float, str, type(None), tuple, list)
    if not isinstance(a, ok) or not isinstance(b, ok):
        raise GradcliError(f"cannot compare '{typename(a)}' and '{typename(b)}'")
    _check_structure(a, "the comparison")
    _check_structure(b, "the comparison")
    try:
        return {
            ast.Lt: lambda: a < b,
            ast.LtE: lambda: a <= b,
            ast.Gt: lambda: a > b,
            ast.GtE: lambda: a >= b,
            ast.Eq: lambda: a == b,
            ast.NotEq: lambda: a != b,
        }[type(op)]()
    except TypeError:
        raise GradcliError(f"cannot compare '{typename(a)}' and '{typename(b)}'") from None
