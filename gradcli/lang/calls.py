"""Calling one of gradcli's functions with a program's arguments, and the boundary between the
program's errors and gradcli's own.

A call is bound to the function's signature first: a wrong call is the user's error, with the
signature to show. (A binding that succeeded is remembered by the function and the shape of
the call, its number of positional arguments and its keyword names: binding depends on
nothing else, so the same call in a loop is bound once.) Then the arguments are untrusted
values of any type, which the layers that interpret a program's values (the PyTorch surface,
`ops.arithmetic`'s operands, the language's builtins and values, `Tensor`'s own conversions:
`ARGUMENT_LAYERS`) check and convert. A Python error raised there on a value (`float("a")`,
`np.dtype(5)`, a list where a tensor belongs) is an argument error: the program's, exit 1. The
same error raised anywhere else (the kernel, the records' rules, the library features, the
interpreter itself), or an error of calling (a call that does not fit a signature after the
program's call did), is a gradcli bug: it is not converted, and the CLI reports it as an
internal error (exit 70).
"""

from __future__ import annotations

import ast
import inspect
import sys
from collections.abc import Callable
from types import MethodType, TracebackType
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import (
    ArgumentTypeError,
    GradcliError,
    LimitError,
    Span,
    call_did_not_fit,
)
from ..base.record import LazyPattern
from ..core.op import SEQ, complex_refusal, number_outputs
from ..core.sparse import SparseCOO, SparseCSR
from ..core.sparse import refused as sparse_refused
from ..core.tensor import (
    COMPLEX,
    META,
    META_NO_DATA,
    META_NONZERO,
    WIDE_UINT,
    Tensor,
    _GradMode,
    carry_batched,
    carry_meta,
    check_batched_method,
    typename,
)
from ..surface import names as surface_names
from ..surface import nn as surface_nn
from ..surface import public
from ..surface.args import meta_or_cpu
from ..surface.functional import write_out
from .values import PROGRAM_INSTANCES, Device, DType, device_words, range_len, short

# (id(f), number of positional arguments, keyword names) -> f, for calls that bound.
_BOUND: dict[tuple, Any] = {}
_SIGNATURES: dict[int, tuple[Any, Any]] = {}
_METHOD_SIGNATURES: dict[int, tuple[Any, Any]] = {}  # bound methods' by their function's id

# Python's exception classes as the program's `except` sees them.
_MIRRORED = {
    "TypeError": "TypeError",
    "ValueError": "ValueError",
    "AttributeError": "AttributeError",
    "IndexError": "IndexError",
    "KeyError": "KeyError",
    "OverflowError": "OverflowError",
    "ZeroDivisionError": "ZeroDivisionError",
    "FloatingPointError": "FloatingPointError",
    "LinAlgError": "RuntimeError",  # torch.linalg's errors are RuntimeErrors
    "UnicodeEncodeError": "ValueError",
    "UnicodeDecodeError": "ValueError",
}


def signature_of(f: Callable[..., Any]) -> Any:
    if type(f) is MethodType:
        # A bound method is a new object at each attribute access (`optimizer.step`): its
        # signature (the function's, less the first parameter) is kept by its function.
        func = f.__func__
        entry = _METHOD_SIGNATURES.get(id(func))
        if entry is None or entry[0] is not func:
            entry = _METHOD_SIGNATURES[id(func)] = (func, _signature(f))
        return entry[1]
    entry = _SIGNATURES.get(id(f))
    if entry is None or entry[0] is not f:
        if len(_SIGNATURES) > 4096:
            _SIGNATURES.clear()
        # The function is kept with its signature, so that its id cannot be reused meanwhile.
        entry = _SIGNATURES[id(f)] = (f, _signature(f))
    return entry[1]


def _signature(f: Callable[..., Any]) -> Any:
    import inspect

    try:
        return inspect.signature(f)
    except (TypeError, ValueError):
        return False


def checked_call(
    f: Callable[..., Any],
    args: list,
    kwargs: dict,
    name: str | Callable[[], str],
    bound: bool = False,
    raw: Any = None,
) -> Any:
    """`_checked_call`; where an argument is an instance of the program's class that defines
    `__index__`, or a NumPy integer (`k = np.argmax(a)`), and the call refused it by its
    class, the call again with that integer, as PyTorch's argument parser takes such an object
    for an int (`torch.zeros(k)`, `x.view(k, -1)`): nothing is converted, and nothing costs
    more, on the way of a call that works."""
    try:
        return _checked_call(f, args, kwargs, name, bound, raw)
    except GradcliError as e:
        if (
            not _ran_program_code(e)
            and not getattr(e, "sparse_own", False)
            and any(type(v) in (SparseCOO, SparseCSR) for v in (*args, *kwargs.values()))
        ):
            # a sparse gradient given where a tensor is wanted: refused in plain words
            shown = name if isinstance(name, str) else name()
            csr = any(type(v) is SparseCSR for v in (*args, *kwargs.values()))
            raise sparse_refused(f"{shown}()", csr) from None
        if raw or _ran_program_code(e):
            raise  # (Python's builtins take such objects themselves; a program's error stays)
        converted = _indices_of(args, kwargs, e)
        if converted is None:
            if _int_refused(e):
                words = _method_type_words(name, args, kwargs, bound)
                if words is not None:
                    raise GradcliError(words).mirror("TypeError") from None
            raise
    return _checked_call(f, converted[0], converted[1], name, bound, raw)


def _int_refused(e: GradcliError) -> bool:
    """Whether gradcli's own argument check refused a value where an int is wanted
    (`surface.args.int_arg`: "dim must be an int, not str"), in its words, not PyTorch's."""
    return getattr(e, "python_class", None) == "TypeError" and " must be an int, not " in (
        e.message
    )


def _method_type_words(name: Any, args: list, kwargs: dict, bound: bool) -> str | None:
    """PyTorch's parser's words for a tensor method's arguments of the wrong types (a named
    dimension, `x.sum("C")`, `F.softmax(x, dim="C")`), where its recorded signatures say
    them (`callerrors`)."""
    from ..surface.callerrors import function_type_error, method_type_error

    label = name if isinstance(name, str) else name()
    try:
        if not bound:
            return function_type_error(label, args, kwargs)
        return method_type_error(label, args, kwargs)
    except (KeyError, IndexError, ValueError):  # (a table without those words)
        return None


# Set by the runtime: the code of `Runtime.invoke`, through which every program function runs.
INVOKE_CODE: list = []


def _ran_program_code(e: BaseException) -> bool:
    """Whether the error came through a program's function (a call is retried only when it was
    refused before any program code ran, so nothing of the program runs twice)."""
    tb = e.__traceback__
    codes = INVOKE_CODE
    while tb is not None:
        if tb.tb_frame.f_code in codes:
            return True
        tb = tb.tb_next
    return False


# The words of a refusal of a value where an integer is wanted (PyTorch's argument parser's,
# Python's): only these are answered with the object's __index__.
_INT_WORDS = (
    "tuple of ints",
    "must be int",
    "must be an int",
    "interpreted as an integer",
    "SymInt",
)


def _indices_of(args: list, kwargs: dict, e: GradcliError) -> tuple[list, dict] | None:
    """(args, kwargs) with each instance of the program's class that defines `__index__`, and
    each NumPy integer (also inside a tuple or list), replaced by its integer; None when there
    is none, or the refusal is not of the arguments (a TypeError) nor of a value where an
    integer is wanted naming its class."""
    kinds = PROGRAM_INSTANCES[0] if PROGRAM_INSTANCES else ()
    message = e.message

    def candidates(v: Any, outer: bool = True) -> list:
        if isinstance(v, np.integer):
            return [typename(v)]
        if kinds and isinstance(v, kinds) and v.special("__index__") is not None:
            return [v.cls.name]
        # a size given as a tuple or list of ints (`x.view((k, -1))`): one level, a short one
        # (never a walk through a program's data: nested or shared lists of millions)
        if outer and type(v) in (tuple, list) and len(v) <= 64:
            return [n for x in v for n in candidates(x, False)]
        return []

    names = [n for v in (*args, *kwargs.values()) for n in candidates(v)]
    if not names:
        return None
    if getattr(e, "python_class", None) != "TypeError" and not (
        any(w in message for w in _INT_WORDS)
        and any(f"'{n}'" in message or f" {n}" in message for n in names)
    ):
        return None
    from .classes import program_index

    def conv(v: Any) -> Any:
        if isinstance(v, np.integer):
            return int(v)
        if kinds and isinstance(v, kinds):
            return program_index(v)
        if type(v) in (tuple, list) and candidates(v):
            return type(v)(conv(x) for x in v)
        return v

    return [conv(a) for a in args], {k: conv(v) for k, v in kwargs.items()}


def _checked_call(
    f: Callable[..., Any],
    args: list,
    kwargs: dict,
    name: str | Callable[[], str],
    bound: bool = False,
    raw: Any = None,
) -> Any:
    """Call one of gradcli's functions with a program's arguments: a call that does not fit the
    signature, and an argument error (`is_argument_error`), are the program's errors (the
    original exception kept as the cause, for `--debug`); any other exception propagates.

    name   how the program named the function (or a function that says it, called only for
           an error message)
    bound  the first argument is the object of a method (not counted in messages)
    raw    the function takes torch dtypes as they are; otherwise they become NumPy dtypes
    """
    if _LAZY[0] and not bound and _uninitialized_among(args, kwargs):
        from .torch_reprs import shown

        text = shown(f)  # (one of torch's functions; Python's print, len... take it)
        if text is not None:
            raise surface_nn.uninitialized_use(text, *args, *kwargs.values())
    if args and not bound:
        if not isinstance(args[0], Tensor):
            _parser_checked(f, args, kwargs, name)
        elif _odd_after_the_first(args, kwargs):
            _parser_checked(f, args, kwargs, name)
    if kwargs:
        _keywords_checked(f, args, kwargs, name, bound)
    out: Any = _NO_OUT
    if kwargs and not _NUMPY_KEYS.isdisjoint(kwargs):
        kwargs = _numpy_names(f, kwargs)
    if kwargs and "out" in kwargs and _takes_out(f):
        kwargs = dict(kwargs)
        out = kwargs.pop("out")
        if out is None:  # (PyTorch's default: a new tensor)
            out = _NO_OUT
    # (a bound method is known by its function: the object is new at every access)
    method = type(f) is MethodType
    fixed = f.__func__ if method else f
    needs = getattr(fixed, "needs_sizes", None)
    if needs is not None and len(args) <= (0 if method else 1) and needs[1] not in kwargs:
        # (`x.permute()`, `x.reshape()`: no sizes at all, PyTorch's parser's TypeError)
        raise GradcliError(
            f'{needs[0]}() missing 1 required positional arguments: "{needs[1]}"'
        ).mirror("TypeError")
    if not bound and len(args) > 1:
        _fewer_positional(f, args, kwargs, name)
    key = (id(fixed), method, len(args), tuple(kwargs) if kwargs else ())
    if _BOUND.get(key) is not fixed:
        sig = signature_of(f)
        if sig:
            try:
                sig.bind(*args, **kwargs)
            except TypeError as e:
                label = name if isinstance(name, str) else name()
                shown = args[1:] if bound else args
                raise GradcliError(
                    _call_error_words(label, bound, args, kwargs)
                    or _module_method_words(f, sig, bound, args, kwargs)
                    or _bind_words(label, bound, args, e),
                    found=f"{len(shown)} positional argument(s)"
                    + (f" and keywords {', '.join(kwargs)}" if kwargs else ""),
                    expected=f"{label}{_public_sig(sig, bound)}",
                ).mirror("TypeError") from None
        if len(_BOUND) > 8192:
            _BOUND.clear()
        _BOUND[key] = fixed
    meta = False
    if META:
        _meta_data_shaped(args, kwargs, name)
    if kwargs and kwargs.get("device") is not None:
        meta = device_checked(kwargs["device"], name, bound, fixed, args, kwargs)
    if COMPLEX[0]:
        _complex_checked(fixed, args, kwargs, name)
    if WIDE_UINT[0]:
        _uint_checked(fixed, args, kwargs, name)
    if not raw:
        for a in args:
            if isinstance(a, DType) or type(a) is range:
                args, kwargs = _converted(f, args, kwargs, name)
                break
        else:
            for k, a in kwargs.items():
                if isinstance(a, DType):
                    # The common case (`dtype=torch.float64`): one keyword to convert.
                    kwargs = {**kwargs, k: a.np}
                elif type(a) is range:
                    args, kwargs = _converted(f, args, kwargs, name)
                    break
    try:
        if out is not _NO_OUT:
            label = name if isinstance(name, str) else name()
            return write_out(
                out, f(*args, **kwargs), label.rpartition(".")[2], (*args, *kwargs.values())
            )
        if _GradMode.vmapped and bound and args:
            label = name if isinstance(name, str) else name()
            method = label.rpartition(".")[2]
            if method.endswith("_") and not method.endswith("__"):
                check_batched_method(method, args, kwargs)
        since = SEQ[0]
        result = f(*args, **kwargs) if not meta else meta_call(f, args, kwargs)
        if META and not meta:
            if isinstance(result, Tensor) and args:
                _meta_like(result, args, kwargs, name)
            carry_meta((*args, *kwargs.values()), result)
        if _GradMode.vmapped:
            _carry_call(args, kwargs, result)
        if isinstance(result, (tuple, list)) and SEQ[0] > since + 1:
            number_outputs(result, since)
        return result
    except ArgumentTypeError as e:
        raise _placed(e, f, args, kwargs, name, bound) from None
    except CONVERTED as e:
        if not is_argument_error(e):
            if isinstance(e, TypeError) and _forwarded_call_error(e, args, kwargs):
                raise _forwarded_error(e, name) from None
            raise
        raise _argument_error(e, args, name, bound) from e
    except MemoryError:
        raise LimitError(
            "out of memory", hint="the tensors are too large for this machine"
        ) from None
    except RuntimeError as e:
        raise _shape_error(e) from None
    except np.exceptions.ComplexWarning:
        # a complex value reached a conversion to a real one (`core.op`): refused
        label = name if isinstance(name, str) else name()
        raise complex_refusal(f"{label}()") from None


# torch's C++ functions that take fewer positional arguments than gradcli's function of the
# name, which F's (or a keyword-only parameter of torch's) shares: `torch.relu(x, 1)` is
# PyTorch's TypeError, where F.relu's `inplace` would take the 1 (checked against PyTorch's
# signatures by tests/surface/test_callerrors.py; gradcli's functions of these names).
TORCH_POSITIONAL = {
    "relu": 1,
    "clone": 1,
    "cumsum": 2,
    "cumprod": 2,
    "index_add": 4,
    "scalar_tensor": 1,
    "max_pool1d": 6,
    "max_pool2d": 6,
    "max_pool3d": 6,
    "max_pool1d_with_indices": 6,
}


def _fewer_positional(f: Any, args: list, kwargs: dict, name: Any) -> None:
    """Raises PyTorch's TypeError for a call of one of `TORCH_POSITIONAL` by its torch name
    (`torch.relu`, `T.cumsum` of `import torch as T`) with more positional arguments than
    torch's takes (not by F's name, nor a bare one, which may be either's). Known by the
    function's own name first: nothing is looked up for any other call."""
    most = TORCH_POSITIONAL.get(getattr(f, "__name__", None))  # type: ignore[arg-type]
    if most is None or len(args) <= most:
        return
    label = name if isinstance(name, str) else name()
    head, _, last = label.rpartition(".")
    if not head or last != f.__name__:
        return
    from ..surface import callerrors

    qualified = f"torch.{last}"
    if callerrors.qualified_name(label, False, args)[:1] != [qualified]:
        return
    if not _is_torch(f, qualified):
        return
    words = callerrors.call_error(qualified, False, args, kwargs)
    if words is not None:
        raise GradcliError(words).mirror("TypeError")


def _uint_checked(f: Any, args: list, kwargs: dict, name: str | Callable[[], str]) -> None:
    """A tensor of uint16/uint32/uint64 goes only where PyTorch's kernels take it
    (`surface.uintgate`, the one table)."""
    module = getattr(f, "__module__", None) or ""
    if not module.startswith(("gradcli.surface", "gradcli.ops", "gradcli.core")):
        return
    from ..surface import uintgate

    label = name if isinstance(name, str) else name()
    uintgate.check(label.rpartition(".")[2], (*args, *kwargs.values()))


def _complex_checked(f: Any, args: list, kwargs: dict, name: str | Callable[[], str]) -> None:
    """A complex tensor passed to one of gradcli's functions whose complex support is not
    declared (`surface.names.COMPLEX_NAMES`) is refused, before the function computes with it:
    a composition written for real numbers (a transpose that should conjugate, a comparison,
    an ordering) would give a real-valued answer in silence."""
    for a in (*args, *kwargs.values()):
        if type(a) is Tensor or isinstance(a, Tensor):
            if a.data.dtype.kind == "c":
                break
        elif isinstance(a, (list, tuple)) and any(
            isinstance(t, Tensor) and t.data.dtype.kind == "c" for t in a[:64]
        ):
            break
    else:
        return
    module = getattr(f, "__module__", None) or ""
    if not module.startswith(("gradcli.surface", "gradcli.ops", "gradcli.core")):
        return  # (Python's builtins, the language's own: print, len, isinstance...)
    label = name if isinstance(name, str) else name()
    key = label.rpartition(".")[2]
    if key in surface_names.COMPLEX_NAMES:
        return
    if "." not in label:
        # (a function called through a name of the program's, `f = torch.linalg.qr; f(z)`:
        # the declared function's own name)
        own = getattr(getattr(f, "__wrapped__", f), "__name__", "")
        if own in surface_names.COMPLEX_NAMES or own.removeprefix("linalg_") in (
            surface_names.COMPLEX_NAMES
        ):
            return
    refused = surface_names.COMPLEX_REFUSED.get(key) or surface_names.COMPLEX_REFUSED.get(
        getattr(f, "__name__", "")
    )
    if refused is not None:  # PyTorch's own error (a program's `except` prints it)
        from ..core.dtypes import scalar_type_name

        if key in ("clamp", "clamp_", "clip", "clip_") and all(
            b is None for b in (*args[1:], kwargs.get("min"), kwargs.get("max"))
        ):
            # (PyTorch checks the bounds before the dtype)
            raise GradcliError(
                "torch.clamp: At least one of 'min' or 'max' must not be None"
            ).mirror("RuntimeError")
        if key in ("max", "min") and (len(args) > 1 or kwargs):
            other = args[1] if len(args) > 1 else kwargs.get("other")
            refused = (
                ("RuntimeError", f"{key}imum not implemented for complex tensors.")
                if isinstance(other, Tensor)
                else ("RuntimeError", f"{key}(): does not support complex input")
            )

        kind = next(
            t.dtype
            for t in (
                *args,
                *kwargs.values(),
                *(x for a in args if isinstance(a, (list, tuple)) for x in a[:64]),
            )
            if isinstance(t, Tensor) and t.data.dtype.kind == "c"
        )
        raise (
            GradcliError(refused[1].replace("{T}", scalar_type_name(kind)))
            .mirror(refused[0])
            .pytorch()
        )
    raise complex_refusal(f"{label}()")


def _carry_call(args: list, kwargs: dict, result: Any) -> None:
    """Inside vmap: the tensors a function returns depend on its tensor arguments (the results
    computed without a recorded operation, comparisons, indices, masks, are batched too)."""
    outs = result if isinstance(result, (tuple, list)) else (result,)
    made = [t for t in outs if isinstance(t, Tensor)]
    if made:
        ins = [a for a in (*args, *kwargs.values()) if isinstance(a, Tensor)]
        for t in made:
            carry_batched(ins, t)


# id(function) -> (the function, whether its first parameter is one PyTorch's parser wants a
# tensor for in some C++ builtin: `input`, `condition`...)
_TENSOR_FIRST: dict[int, tuple[Any, bool]] = {}
# The first parameters' names of the C++ builtins whose parser wants a tensor (or a dtype, an
# int) there and of the Python functions recorded (`callerrors.tensor_first_names()`, which a
# test compares with this): a function whose first parameter is named otherwise is not
# checked, and the table is not imported, on the start-up path.
_TENSOR_FIRST_NAMES = frozenset(
    {
        "A",
        "LD",
        "LU",
        "LU_data",
        "a",
        "abs",
        "anchor",
        "args",
        "b",
        "condition",
        "count",
        "data",
        "device",
        "elements",
        "f",
        "from_",
        "high",
        "indices",
        "input",
        "input1",
        "logits",
        "low",
        "matrices",
        "mean",
        "mode",
        "n",
        "new_state",
        "precision",
        "query",
        "real",
        "repeats",
        "row",
        "sorted_sequence",
        "start",
        "tensor",
        "tensors",
        "theta",
        "type1",
        "weight",
        "window_length",
        "x",
        "x1",
        "y",
    }
)
# (id(function), its name, its arguments' types) -> the function, for calls found to fit
_FITS: dict[tuple, Any] = {}


_LAZY = surface_nn.LAZY


def _uninitialized_among(args: list, kwargs: dict) -> bool:
    """Whether a lazy module's parameter, before its first call, is among the arguments."""
    kinds = surface_nn.UNINITIALIZED
    return any(type(a) in kinds for a in args) or any(type(a) in kinds for a in kwargs.values())


def _odd_after_the_first(args: list, kwargs: dict | None) -> bool:
    """Whether a call whose first argument is a tensor has a str or a list among the others:
    where PyTorch's parser most often refuses a type (`torch.add(x, [1.0])`, `torch.sum(x,
    'a')`; numbers, tuples, None are left to the functions, for speed)."""
    for a in args:
        if type(a) is str or type(a) is list:
            return True
    if kwargs:
        for a in kwargs.values():
            if type(a) is str or type(a) is list:
                return True
    return False


# (id(function), its name, bound, the first argument a tensor, the keywords) -> the function,
# for calls whose keywords PyTorch's function of the name takes (or that are not known)
_KEYWORDS_KNOWN: dict[tuple, Any] = {}


# Keywords every function PyTorch has by one of these names takes (torch.X, F.X, Tensor.X...:
# each one the tables of `surface.torch_signatures` know, checked by
# tests/surface/test_callerrors.py): the commonest calls with keywords need not load those
# tables (about a millisecond of start-up) to learn that PyTorch takes them.
_FACTORY = frozenset({"requires_grad", "dtype", "device"})
PYTORCH_TAKES: dict[str, frozenset[str]] = {
    **dict.fromkeys(
        "tensor zeros ones randn rand arange linspace full empty eye zeros_like ones_like "
        "randn_like rand_like full_like empty_like".split(),
        _FACTORY,
    ),
    **dict.fromkeys("sum mean".split(), frozenset({"dim", "keepdim", "dtype"})),
    **dict.fromkeys("softmax log_softmax".split(), frozenset({"dim", "dtype"})),
    **dict.fromkeys("cat stack cumsum argmax argmin".split(), frozenset({"dim"})),
}


def _keywords_checked(
    f: Callable[..., Any], args: list, kwargs: dict, name: Any, bound: bool
) -> None:
    """A keyword PyTorch's function does not take is its TypeError, in its words, though
    gradcli's function of the name takes it (`torch.relu(x, inplace=True)`: F.relu's
    keyword; `F.softmax(x, axis=0)`: a NumPy name only C++ builtins take)."""
    label = name if isinstance(name, str) else name()
    taken = PYTORCH_TAKES.get(label.rpartition(".")[2])
    if taken is not None and taken.issuperset(kwargs):
        return  # (every function PyTorch has by this name takes them: no table to load)
    key = (id(f), label, bound, bool(args) and isinstance(args[0], Tensor), tuple(kwargs))
    if _KEYWORDS_KNOWN.get(key) is f:
        return
    from ..surface import callerrors

    if callerrors.python_type_name is None:
        callerrors.python_type_name = _python_type_name
    found = callerrors.keyword_names(label, bound, args, lambda q: _is_torch(f, q))
    if found is not None and any(k not in found[1] for k in kwargs):

        def binds() -> bool:
            sig = signature_of(f)
            try:
                if sig:
                    sig.bind(*args, **kwargs)
            except TypeError:
                return False
            return True

        words = callerrors.keyword_error(found[0], bound, args, kwargs, binds)
        if words is not None:
            raise GradcliError(words).mirror("TypeError")
    if len(_KEYWORDS_KNOWN) > 4096:
        _KEYWORDS_KNOWN.clear()
    _KEYWORDS_KNOWN[key] = f


def _is_torch(f: Callable[..., Any], qualified: str) -> bool:
    """Whether `f` is the function PyTorch's name `qualified` is in gradcli's namespaces."""
    from .namespaces import build_namespaces
    from .values import Builtin, Namespace

    owner, _, attr = qualified.rpartition(".")
    path = {"F": "torch.nn.functional", "nn": "torch.nn"}.get(owner, owner).split(".")
    ns: Any = build_namespaces().get(path[0])
    for part in path[1:]:
        ns = ns.members.get(part) if isinstance(ns, Namespace) else None
    member = ns.members.get(attr) if isinstance(ns, Namespace) else None
    return (member.fn if isinstance(member, Builtin) else member) is f


def _parser_checked(f: Callable[..., Any], args: list, kwargs: dict, name: Any) -> None:
    """A call whose first argument is not a tensor, of a function of PyTorch's that refuses
    such a value before any work, is its error (`callerrors.parser_error`): the argument
    parser's TypeError for a C++ builtin (`torch.digamma(2.0)`, `torch.sum('a')`,
    `torch.clamp(1.0)`), a Python function's recorded words (`F.softmax(2.0)`); gradcli's
    functions, which take a number as a 0-d tensor, would compute a value."""
    if args and type(args[0]) in (SparseCOO, SparseCSR):
        return  # a sparse tensor is a tensor to PyTorch's parser (the function decides)
    entry = _TENSOR_FIRST.get(id(f))
    if entry is None or entry[0] is not f:
        sig = signature_of(f)
        params = list(sig.parameters.values()) if sig else []
        first = params[0].name if params and params[0].kind <= params[0].VAR_POSITIONAL else None
        if len(_TENSOR_FIRST) > 4096:
            _TENSOR_FIRST.clear()
        entry = _TENSOR_FIRST[id(f)] = (f, first in _TENSOR_FIRST_NAMES)
    if not entry[1]:
        return
    # a call of the same function by the same name with arguments of the same types fits as
    # the last did
    label = name if isinstance(name, str) else name()
    key = (
        id(f),
        label,
        tuple((a.ndim == 0, a.requires_grad) if isinstance(a, Tensor) else type(a) for a in args),
        tuple((k, type(v)) for k, v in kwargs.items()) if kwargs else (),
    )
    if _FITS.get(key) is f:
        return
    from ..surface import callerrors
    from ..surface.callerrors import parser_error

    if callerrors.python_type_name is None:
        callerrors.python_type_name = _python_type_name

    def binds() -> bool:
        sig = signature_of(f)
        try:
            if sig:
                sig.bind(*args, **kwargs)
        except TypeError:
            return False
        return True

    def is_it(qualified: str) -> bool:
        return _is_torch(f, qualified)

    if not callerrors.resolves(label, args, is_it):
        # called by a name of the program's (`f = torch.digamma; f(2.0)`): PyTorch's words
        # name the function by its own
        own = getattr(f, "__name__", "")
        if not own or not callerrors.resolves(own, args, is_it):
            from .torch_reprs import table_name  # (`import torch.nn.functional as M`)

            own = table_name(f) or ""
            if not own or not callerrors.resolves(own, args, is_it):
                return
        label = own
    found = parser_error(label, args, kwargs, binds, is_it)
    if found is not None:
        raise GradcliError(found[1]).mirror(found[0])
    if len(_FITS) > 4096:
        _FITS.clear()
    _FITS[key] = f


def _python_type_name(v: Any) -> str:
    """A value's class as Python's `type(v).__name__` names it (`module`, `function`, `M`)."""
    from .builtins import type_of
    from .classes import FunctionClass, ModuleClass, OptimClass, PlainClass
    from .values import PyType

    if isinstance(v, (ModuleClass, OptimClass, PlainClass, FunctionClass, PyType)):
        return "type"
    t = type_of(v)
    shown = str(getattr(t, "shown", None) or getattr(t, "name", None) or typename(v))
    if shown.startswith(("torch.nn.", "torch.utils.", "torch.optim.", "torch.autograd.")):
        return shown.rpartition(".")[2]  # (a class of Python's: its own name, `Linear`)
    return shown


def _module_call(f: Any) -> bool:
    """Whether `f` is an `nn.Module`'s `__call__` (the program called a module)."""
    from ..surface.nn import Module

    return getattr(f, "__func__", f) is Module.__call__


def _placed(
    e: ArgumentTypeError,
    f: Callable[..., Any],
    args: list,
    kwargs: dict,
    name: str | Callable[[], str],
    bound: bool,
) -> ArgumentTypeError:
    """A wrong type raised for a parameter of the function the program called, as PyTorch's
    parser words it for this call (the function's name, the argument's place)."""
    if e.fn:
        if bound and _module_call(f):
            # a module called on a wrong input: the error is the call its forward makes
            # (`torch.sigmoid(input)`), placed as that call has it, not shifted for `self`
            bound = False
        e = e.placed(kwargs, bound)
        if e.param == "input" and e.position in (1, None) and not bound:
            # an alias of a builtin (torch.arccos of acos's function): PyTorch names the
            # one the program called (`arccos(): argument 'input' ...`)
            from ..surface.callerrors import builtin_name

            label = name if isinstance(name, str) else name()
            alias = builtin_name(label, args)
            if alias and alias != e.fn and alias.removesuffix("_") != e.fn:
                return e.place(alias, e.position)
        return e
    sig = signature_of(f)
    if not sig:
        return e
    positional = [
        p.name
        for p in sig.parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    if e.param in kwargs:
        position = None
    elif e.param in positional and positional.index(e.param) < len(args):
        position = positional.index(e.param) + (0 if bound else 1)
    else:
        return e  # a parameter of a function gradcli called on the way
    from ..surface.callerrors import shown_name

    label = name if isinstance(name, str) else name()
    return e.place(shown_name(label, bound, args), position)


def _bind_words(label: str, bound: bool, args: list, e: TypeError) -> str:
    """The words for a call that does not bind where PyTorch's are not recorded: a keyword
    the function does not take in the words of PyTorch's parser and Python's (`zeros() got
    an unexpected keyword argument 'foo'`), otherwise the function's name and Python's."""
    text = str(e)
    if text.startswith("got an unexpected keyword argument"):
        from ..surface.callerrors import shown_name

        return f"{shown_name(label, bound, args)}() {text}"
    return _init_words(label, text) or f"{label}(): {text}"


def _init_words(label: str, text: str) -> str | None:
    """Python's words for a torch.nn module's constructor called with arguments that do not
    bind, under the name PyTorch's are (the class that defines its __init__, as the signature
    table has it: `_BatchNorm.__init__() missing 1 required positional argument: ...`)."""
    head, sep, rest = text.partition("() ")
    if not (sep and head.endswith(".__init__")):
        return None
    from ..surface.torch_signatures import SIGNATURES

    entry = SIGNATURES.get("nn." + label.rpartition(".")[2], "")
    if entry.startswith("py ") and ".__init__(" in entry:
        return f"{entry[3 : entry.index('(')]}() {rest}"
    return None


def _call_error_words(label: str, bound: bool, args: list, kwargs: dict) -> str | None:
    """PyTorch's (or Python's) words for the call that did not bind (`callerrors`)."""
    from ..surface.callerrors import call_error

    return call_error(label, bound, args, kwargs)


_KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: "P",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "PK",
    inspect.Parameter.VAR_POSITIONAL: "VP",
    inspect.Parameter.KEYWORD_ONLY: "K",
    inspect.Parameter.VAR_KEYWORD: "VK",
}


def _torchs_object(v: Any) -> bool:
    """Whether v is one of torch's modules, optimizers or schedulers (PyTorch's classes are
    Python's there: their methods' misfit calls are worded by CPython)."""
    return isinstance(v, surface_nn.Module) or getattr(type(v), "PROGRAM_BASE", None) in _OPTIM


# torch.optim's bases (a class's PROGRAM_BASE) -> the package PyTorch lists its classes in
_OPTIM = {
    "optimizer": "torch.optim",
    "scheduler": "torch.optim.lr_scheduler",
    "plateau": "torch.optim.lr_scheduler",
}


def _optim_package(v: Any) -> str:
    return _OPTIM[type(v).PROGRAM_BASE]


def _module_method_words(
    f: Callable[..., Any], sig: Any, bound: bool, args: list, kwargs: dict
) -> str | None:
    """CPython's words for a call of an nn.Module method that does not fit (PyTorch's are
    Python functions: `Module.get_parameter() missing 1 required positional argument:
    'target'`), where gradcli's method is defined on a class of torch.nn's name."""
    if type(f) is MethodType and _torchs_object(f.__self__):
        args = [f.__self__, *args]  # (the method as a value: its signature has no self)
    elif not (bound and args and _torchs_object(args[0])):
        return None
    fn = getattr(f, "__func__", f)
    owner, _, _ = getattr(fn, "__qualname__", "").rpartition(".")
    package = "torch.nn" if isinstance(args[0], surface_nn.Module) else _optim_package(args[0])
    if not owner or "." in owner or "<" in owner or not public.has(package, owner):
        return None
    params = [(p.name, _KINDS[p.kind], p.default is not p.empty) for p in sig.parameters.values()]
    if not params or params[0][0] != "self":
        params = [("self", "PK", False), *params]
    qualname = fn.__qualname__
    from ..surface.callerrors import python_call_error

    return python_call_error(qualname, params, len(args), list(kwargs))


def _shape_error(e: RuntimeError) -> Exception:
    """A layer's or a draw's size below zero (`nn.LayerNorm(-1)`) is the program's error (the
    random module's ShapeError; looked up only once that module is loaded: start-up)."""
    R = sys.modules.get("gradcli.surface.random")
    if R is not None and isinstance(e, R.ShapeError):
        return GradcliError(str(e))
    return e


def call_positional(f: Callable[..., Any], args: list, name: str | Callable[[], str]) -> Any:
    """`checked_call(f, args, {}, name)` at a call site of positional arguments only where the
    same function was called (and bound) before with as many: binding depends on nothing else
    (`_BOUND`), so only the arguments' conversions are left, and the boundary of errors."""
    for a in args:
        if isinstance(a, DType) or type(a) is range:
            return checked_call(f, args, {}, name, False, False)
    if args and (not isinstance(args[0], Tensor) or _odd_after_the_first(args, None)):
        _parser_checked(f, args, {}, name)
    try:
        return f(*args)
    except ArgumentTypeError as e:
        raise _placed(e, f, args, {}, name, False) from None
    except CONVERTED as e:
        if not is_argument_error(e):
            if isinstance(e, TypeError) and _forwarded_call_error(e, args, {}):
                raise _forwarded_error(e, name) from None
            raise
        raise _argument_error(e, args, name, False) from e
    except MemoryError:
        raise LimitError(
            "out of memory", hint="the tensors are too large for this machine"
        ) from None
    except RuntimeError as e:
        raise _shape_error(e) from None


def _forwarded_error(e: TypeError, name: str | Callable[[], str]) -> GradcliError:
    label = name if isinstance(name, str) else name()
    return GradcliError(
        _init_words(label, str(e)) or f"{label}(): {short(str(e))}",
        hint="check the arguments against PyTorch's signature (see `gradcli ops`)",
    ).mirror("TypeError")


def _argument_error(
    e: Exception, args: list, name: str | Callable[[], str], bound: bool
) -> GradcliError:
    """The program's error for an argument error `e` raised by a call of `name`."""
    label = name if isinstance(name, str) else name()
    what = short(str(e)) or type(e).__name__
    if isinstance(e, AttributeError):
        what = f"an argument has the wrong type ({what})"
    err = GradcliError(
        f"{label}(): {what}",
        found=", ".join(typename(a) for a in (args[1:] if bound else args)) or None,
        hint="check the arguments' types and values (see `gradcli ops`)",
    ).mirror(_MIRRORED.get(type(e).__name__, "RuntimeError"))
    err.cause = e
    return err


_NO_OUT = object()


# NumPy's keyword names that PyTorch's argument parser accepts for its own (`x.sum(axis=0)`,
# `y.argmax(axis=1)`, `keepdims=True`), for every function that has the PyTorch name.
# (`x`, `a`, `x1` for input and `x2` for other too: `torch.exp(x=t)`, `torch.add(x1=a, x2=b)`;
# a function whose PyTorch version is Python's refuses them first, `_keywords_checked`)
_NUMPY_NAMES = (
    ("axis", "dim"),
    ("keepdims", "keepdim"),
    ("x", "input"),
    ("a", "input"),
    ("x1", "input"),
    ("x2", "other"),
)
_NUMPY_KEYS = frozenset(n for n, _ in _NUMPY_NAMES)


def _numpy_names(f: Callable[..., Any], kwargs: dict) -> dict:
    module = getattr(f, "__module__", None) or ""
    if not module.startswith(("gradcli.surface.", "gradcli.ops.")):
        return kwargs
    sig = signature_of(f)
    if not sig:
        return kwargs
    params = sig.parameters
    renamed = dict(kwargs)
    for numpy_name, torch_name in _NUMPY_NAMES:
        if (
            numpy_name in renamed
            and numpy_name not in params
            and torch_name in params
            and torch_name not in renamed
        ):
            renamed[torch_name] = renamed.pop(numpy_name)
    return renamed


def _takes_out(f: Callable[..., Any]) -> bool:
    """Whether `out=` is the PyTorch calling convention for f (a function of the PyTorch
    surface that has no `out` parameter of its own): the result is then written into it."""
    module = getattr(f, "__module__", None) or ""
    if not module.startswith(("gradcli.surface.", "gradcli.ops.")):
        return False
    sig = signature_of(f)
    return (
        bool(sig)
        and "out" not in sig.parameters
        and not any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values())
    )


# The functions whose result's shape depends on the input's values (a meta tensor has none).
_DATA_SHAPED = frozenset(
    "nonzero argwhere masked_select unique unique_consecutive bincount histc repeat_interleave "
    "nonzero_static".split()
)


def _meta_data_shaped(args: Any, kwargs: dict, name: Any) -> None:
    if not any(isinstance(a, Tensor) and a in META for a in (*args, *kwargs.values())):
        return
    label = (name if isinstance(name, str) else name()).rpartition(".")[2]
    if label in ("allclose", "equal"):  # (their answer is a Python bool: values read)
        if label == "allclose":
            raise GradcliError("Tensor.item() cannot be called on meta tensors").mirror(
                "RuntimeError"
            )
        raise GradcliError(
            "aten::equal: attempted to run this operator with Meta tensors, but there was no "
            "fake impl or Meta kernel registered.",
            hint="compare shapes and dtypes: a meta tensor has no values",
        ).mirror("NotImplementedError")
    if label == "copy_" and args and not (isinstance(args[0], Tensor) and args[0] in META):
        raise GradcliError(META_NO_DATA).mirror("NotImplementedError")  # (onto the CPU)
    if label in ("nonzero", "argwhere"):
        raise GradcliError(META_NONZERO).mirror("NotImplementedError")
    if label in _DATA_SHAPED:
        raise GradcliError(
            f"{label}() cannot run on a meta tensor: its result's shape depends on the "
            "values, which a meta tensor has none of",
            hint="make the tensor on the CPU",
        ).mirror("NotImplementedError")  # (PyTorch's words differ from one function to another)


def _meta_like(result: Tensor, args: Any, kwargs: dict, name: Any) -> None:
    """`torch.empty_like(x)`, `x.new_zeros(2)` of a meta tensor: on its device (unless the
    call names another)."""
    if result in META or not isinstance(args[0], Tensor) or args[0] not in META:
        return
    if kwargs.get("device") is not None:
        return
    label = (name if isinstance(name, str) else name()).rpartition(".")[2]
    if label.endswith("_like") or label.startswith("new_") or label == "new":
        META.add(result)


def meta_call(f: Callable[..., Any], args: Any, kwargs: dict) -> Any:
    """A call given `device='meta'` (`torch.empty(3, 4, device='meta')`, `nn.Linear(2, 3,
    device='meta')`): made as inside `with torch.device('meta'):`, its tensors (a module's
    parameters and buffers) on the meta device."""
    from .values import meta_block

    with meta_block():
        result = f(*args, **kwargs)
    if isinstance(result, Tensor):
        META.add(result)
    elif isinstance(result, surface_nn.Module):
        for m in result.module_list():
            for t in (*m._parameters.values(), *m._buffers.values()):
                if t is not None:
                    META.add(t)
    return result


def device_checked(
    device: Any,
    name: Any = None,
    bound: bool = False,
    f: Any = None,
    args: Any = (),
    kwargs: Any = None,
) -> bool:
    """A `device=` argument (of a constructor, `.to`, a module): a string parsed as PyTorch
    parses it (in its words, and saying what a dtype given as a string is), and the CPU, the
    one device gradcli computes on. A value of another type (a dtype, a float, a list...) is
    the argument parser's TypeError for a constructor (`zeros(): argument 'device' must be
    torch.device, not torch.dtype`; a module's from the `empty` that makes its parameters);
    `.to` words its own."""
    if name is not None:
        error = device_type_error(
            name if isinstance(name, str) else name(), device, bound, f, args, kwargs
        )
        if error is not None:
            raise error
    if isinstance(device, Device):
        device = str(device)
    elif isinstance(device, int) and not isinstance(device, bool):
        from ..surface.args import cuda_method

        raise cuda_method(device)  # as PyTorch: an index alone names an accelerator
    if isinstance(device, str):
        return meta_or_cpu(device)
    return False


def device_type_error(
    label: str,
    device: Any,
    bound: bool = False,
    f: Any = None,
    args: Any = (),
    kwargs: Any = None,
) -> GradcliError | None:
    """PyTorch's TypeError for a `device=` that is not a device (`values.device_words`), the
    function named as PyTorch's table names it."""
    if f is not None and not (device is None or isinstance(device, (Device, str, int))):
        from .torch_reprs import table_name  # (`z = torch.zeros; z(2, device=...)`)

        label = table_name(f) or label
    return device_words(label, device, bound, args, kwargs)


def _converted(
    f: Callable[..., Any], args: list, kwargs: dict, name: str | Callable[[], str]
) -> tuple[list, dict]:
    """torch dtypes as NumPy dtypes (inside gradcli's functions); ranges checked against the
    list limit (NumPy would make a list of one)."""
    for v in (*args, *kwargs.values()):
        if isinstance(v, range):
            label = name if isinstance(name, str) else name()
            limits.LIST_ITEMS.check(
                range_len(v), f"the number of items of the range passed to {label}()"
            )
    args = [a.np if isinstance(a, DType) else a for a in args]
    kwargs = {k: v.np if isinstance(v, DType) else v for k, v in kwargs.items()}
    return args, kwargs


# What Python and NumPy raise on arguments of the wrong type or value. (RuntimeError,
# AssertionError, NameError... are not here: they can only be gradcli's own bugs.)
CONVERTED = (
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


# The modules that interpret a program's values (see the module's docstring).
ARGUMENT_LAYERS = (
    "gradcli.surface.",
    "gradcli.ops.arithmetic",
    "gradcli.lang.builtins",
    "gradcli.lang.namespaces",
    "gradcli.lang.operators",
    "gradcli.lang.values",
    "gradcli.lang.calls",
    "gradcli.lang.pyobjects",
    "gradcli.lang.formatting",
    "gradcli.lang.text",
    "gradcli.core.tensor",
)
# Python's messages for a call that does not fit a signature (or of something not callable).
_CALL_ERROR = LazyPattern(
    r"object is not callable|positional argument|keyword argument|multiple values for argument"
)


def _innermost_module(tb: TracebackType | None) -> str | None:
    """The module of the innermost gradcli frame an exception went through."""
    found = None
    while tb is not None:
        name = tb.tb_frame.f_globals.get("__name__", "")
        if name == "gradcli" or name.startswith("gradcli."):
            found = name
        tb = tb.tb_next
    return found


def _forwarded_call_error(e: TypeError, args: list, kwargs: dict) -> bool:
    """A call error where one of gradcli's wrappers (`*args, **kwargs`) passed the program's
    own arguments on unchanged: they do not fit the function the wrapper stands for."""
    return bool(_CALL_ERROR.search(str(e))) and call_did_not_fit(e, args=args, kwargs=kwargs)


def is_argument_error(e: BaseException) -> bool:
    """Whether a Python error is the program's: raised on one of its values where gradcli
    interprets them (`ARGUMENT_LAYERS`), and not an error of calling."""
    if not isinstance(e, CONVERTED) or isinstance(e, GradcliError):
        return False
    if isinstance(e, TypeError) and _CALL_ERROR.search(str(e)):
        return False
    module = _innermost_module(e.__traceback__)
    return module is None or module.startswith(ARGUMENT_LAYERS)


def user_error(e: BaseException, span: Span | None, what: str | None = None) -> GradcliError:
    """An argument error (`is_argument_error`) as the program's error, with its cause kept."""
    text = short(str(e)) or type(e).__name__
    err = GradcliError(
        f"{what}: {text}" if what else text,
        span=span,
        hint="check the values' types (--debug shows where the error came from)",
    ).mirror(_MIRRORED.get(type(e).__name__, "RuntimeError"))
    err.cause = e
    return err


def call_name(node: ast.AST, callee: Any) -> str:
    """How the program named the function it called (`torch.sum`), for messages (remembered
    for the call site: `_parser_checked` asks at every call)."""
    known = _CALL_NAMES.get(id(node))
    if known is not None and known[0] is node and known[1] is callee:
        return known[2]
    if len(_CALL_NAMES) > 4096:
        _CALL_NAMES.clear()
    text = _call_name(node, callee)
    _CALL_NAMES[id(node)] = (node, callee, text)
    return text


_CALL_NAMES: dict[int, tuple[Any, Any, str]] = {}


def _call_name(node: ast.AST, callee: Any) -> str:
    func = getattr(node, "func", None)
    if isinstance(func, (ast.Name, ast.Attribute)):
        try:
            text = ast.unparse(func)
        except Exception:  # noqa: BLE001 - only a name for a message
            text = ""
        if 0 < len(text) <= 40:
            own = _own_name(text, callee)
            return text if own is None else own
    # (`ops["drop"](x)`, `getattr(F, name)(x)`: torch's function by the name it is found by)
    return _own_name("", callee) or getattr(callee, "__name__", "function").strip("_") or "function"


# The last parts of a dotted name that are torch's namespaces (`F.relu`, `T.special.expit`):
# a function called through one is called by torch's own name.
_NAMESPACE_WORDS = frozenset(
    "F functional nn linalg special fft init optim autograd lr_scheduler utils func".split()
)


def _own_name(text: str, callee: Any) -> str | None:
    """The name of one of torch's functions called through a name of the program's
    (`fn = F.smooth_l1_loss; fn(x, y, weight=w)`, `self.loss = F.mse_loss`): PyTorch's errors
    name the function by its own name (`smooth_l1_loss()`), and its signature is found by it.
    None where the program's name is the function's own (or it is none of torch's)."""
    own = getattr(callee, "__name__", None)
    head, _, last = text.rpartition(".")
    if not isinstance(own, str) or not own or last == own:
        return None
    if head.rpartition(".")[2] in _NAMESPACE_WORDS or head == "torch":
        return None  # (`torch.special.expit`: torch's name of it, whatever gradcli's __name__)
    from ..surface import callerrors

    def is_it(qualified: str) -> bool:
        return _is_torch(callee, qualified)

    if callerrors.resolves(text if head else last, [], is_it):
        return None  # (gradcli's function of another __name__, named as PyTorch names it)
    from ..surface.torch_signatures import SIGNATURES

    found = [q for q in callerrors.qualified_name(own, False, []) if q in SIGNATURES and is_it(q)]
    if len(found) == 1:
        return found[0]  # (the one it is: `dp = F.dropout` is not torch.dropout)
    if found:
        return own  # (one function of several names: by its own, as an imported one)
    from .torch_reprs import table_name  # (a function whose __name__ is gradcli's own)

    found = table_name(callee)
    return None if found is None or found.rpartition(".")[2] == last else found


def _public_sig(sig: Any, bound: bool) -> str:
    params = list(sig.parameters.values())[1 if bound else 0 :]
    # Without type annotations: `(outputs, inputs, grad_outputs=None)` is what a user reads.
    shown = [str(p.replace(annotation=p.empty)) for p in params if not p.name.startswith("_")]
    return "(" + ", ".join(shown) + ")"
