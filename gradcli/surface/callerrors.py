"""A call that does not fit its function, in the words PyTorch's (or Python's) own call would
raise: the error path of `lang.calls.checked_call` and of a module's call (imported only
there).

PyTorch implements each name in C++ (its argument parser words the error: `exp() takes 1
positional argument but 2 were given`, `exp() missing 1 required positional arguments:
"input"`, the parser's own plural and quotes) or in Python (Python's words, with the
function's qualified name: `mse_loss() missing 1 required positional argument: 'target'`,
`Linear.__init__() takes from 3 to 6 positional arguments but 7 were given`).
`torch_signatures.SIGNATURES` says which, with PyTorch's parameters; the words are worked
out from those and the program's arguments. A name of several overloads (whose error lists
them all), or one PyTorch would bind where gradcli's signature does not, gets no words here
(`None`: the caller keeps its own).

The same words for a program's own functions and methods (`M.forward() takes 2 positional
arguments but 3 were given`): `python_call_error` with the parameters of its `def`.
"""

from __future__ import annotations

from typing import Any

# (name, kind, has a default): kind P positional-only, PK positional or keyword, VP *args,
# K keyword-only, VK **kwargs
Param = tuple[str, str, bool]

_PARSED: dict[str, tuple[str, str, list[Param] | None]] = {}


def _parse(text: str) -> tuple[str, str, list[Param] | None]:
    """`py relu(input, inplace=)` -> ("py", "relu", [("input", "PK", False), ...])."""
    got = _PARSED.get(text)
    if got is not None:
        return got
    kind, _, rest = text.partition(" ")
    if "(" not in rest:
        got = (kind, rest, None)
    else:
        shown, _, inner = rest.partition("(")
        inner = inner[: -1 if inner.endswith(")") else len(inner)]
        params: list[Param] = []
        keyword_only = False
        for item in (p.strip() for p in inner.split(",")):
            if not item:
                continue
            if item == "/":
                params = [(n, "P", d) for n, _, d in params]
            elif item == "*":
                keyword_only = True
            elif item.startswith("**"):
                params.append((item[2:], "VK", False))
            elif item.startswith("*"):
                params.append((item[1:], "VP", False))
                keyword_only = True
            else:
                name = item.rstrip("=")
                params.append((name, "K" if keyword_only else "PK", item.endswith("=")))
        got = (kind, shown, params)
    _PARSED[text] = got
    return got


def qualified_name(name: str, bound: bool, args: list) -> list[str]:
    """The names in `SIGNATURES` a call could be of, most likely first: the program's
    `F.relu`, `nn.Linear`, `torch.optim.SGD`, `x.sum` (a method of a tensor)."""
    from ..core.tensor import Tensor

    last = name.rpartition(".")[2]
    if bound:
        return [f"Tensor.{last}"] if args and isinstance(args[0], Tensor) else []
    head = name.rpartition(".")[0]
    if head.endswith(("functional", "F")):
        return [f"F.{last}", f"torch.{last}"]
    for part, where in (
        ("linalg", "torch.linalg"),
        ("special", "torch.special"),
        ("fft", "torch.fft"),
        ("lr_scheduler", "torch.optim.lr_scheduler"),
        ("optim", "torch.optim"),
        ("init", "torch.nn.init"),
        ("autograd", "torch.autograd"),
        ("nn", "nn"),
    ):
        if head.endswith(part):
            return [f"{where}.{last}"]
    if head:
        return [f"torch.{last}"]
    # a name the program imported (`from torch.nn.functional import relu`)
    return [f"{w}.{last}" for w in ("torch", "F", "nn", "torch.optim", "torch.optim.lr_scheduler")]


def shown_name(name: str, bound: bool, args: list) -> str:
    """The name PyTorch's errors give the function the program called `name` (`exp`,
    `linalg_det`, `Linear.__init__`)."""
    from .torch_signatures import SIGNATURES

    for qualified in qualified_name(name, bound, args):
        text = SIGNATURES.get(qualified)
        if text is not None:
            return _parse(text)[1]
    return name.rpartition(".")[2]


# Builtins whose parser has overloads of a Number `other` the stubs merge into one signature:
# torch.mul(2.0) says the missing `other` first (measured with PyTorch 2.13).
_NUMBER_OVERLOADS = frozenset({"mul", "div", "true_divide", "floor_divide"})


def builtin_name(name: str, args: list) -> str | None:
    """The name of the C++ builtin of one signature whose first parameter is `input` the
    program called as `name` (None: another kind of function)."""
    from .torch_signatures import SIGNATURES

    for qualified in qualified_name(name, False, args):
        text = SIGNATURES.get(qualified)
        if text is not None:
            kind, shown, params = _parse(text)
            if kind == "c" and params and params[0][0] == "input":
                return shown
            return None
    return None


def call_error(name: str, bound: bool, args: list, kwargs: dict) -> str | None:
    """PyTorch's words for a call of `name` that does not fit (None: no such words)."""
    from ..core.tensor import Tensor
    from .torch_signatures import SIGNATURES

    for qualified in qualified_name(name, bound, args):
        text = SIGNATURES.get(qualified)
        if text is None:
            continue
        kind, shown, params = _parse(text)
        given = list(args[1:] if bound else args)
        if params is None and bound:  # a method of several overloads: torch's function's
            words = _method_overload_error(qualified, shown, given, kwargs)
            if words is None and not given and not kwargs:
                words = _method_missing(shown)
            return words
        if params is None:
            return None
        if kind == "py":
            if params and params[0][0] == "self":
                given = [None, *given]  # the object (a module's, an optimizer's, a tensor's)
            return python_call_error(shown, params, len(given), list(kwargs))
        if bound and not params:
            # a method of no arguments (METH_NOARGS): CPython's words, of TensorBase
            if kwargs:
                return f"TensorBase.{shown}() takes no keyword arguments"
            return f"TensorBase.{shown}() takes no arguments ({len(given)} given)"
        if not params and given and qualified.startswith("torch."):
            # a function of no arguments (METH_NOARGS): CPython's words, by its module
            if kwargs:
                return f"{qualified}() takes no keyword arguments"
            return f"{qualified}() takes no arguments ({len(given)} given)"
        if (
            shown not in _NUMBER_OVERLOADS
            and given
            and params
            and params[0][0] == "input"
            and not isinstance(given[0], Tensor)
        ):
            # the parser checks each argument in order: a number where the tensor is due
            # is its error before any missing one (`linear(2.0)`, `atan2(2.0)`)
            from ..core.tensor import pytype_name

            return (
                f"{shown}(): argument 'input' (position 1) must be Tensor, not "
                f"{pytype_name(given[0])}"
            )
        return parser_call_error(shown, params, len(given), list(kwargs))
    return None


# The NumPy names PyTorch's argument parser takes for its own (a C++ builtin's `axis=`).
_PARSER_ALIASES = {
    "axis": "dim",
    "keepdims": "keepdim",
    "x": "input",
    "a": "input",
    "x1": "input",
    "x2": "other",
}


def keyword_names(name: str, bound: bool, args: list, is_it: Any) -> tuple[str, frozenset] | None:
    """The keywords PyTorch's function of the program's `name` takes, with the table's name
    of it (None: not known here, or any keyword: `**kwargs`, a signature of `*size`)."""
    from .torch_signatures import PARSER, SIGNATURES

    for qualified in qualified_name(name, bound, args):
        text = SIGNATURES.get(qualified)
        if text is None or not (bound or is_it(qualified)):
            continue
        kind, _, params = _parse(text)
        if params is not None:
            if any(p[1] in ("VK", "VP") for p in params):
                return None
            names = {p[0] for p in params}
        elif kind.startswith("c") and qualified in PARSER:
            options = PARSER[qualified].split("|")[1:]
            if not options or any("*" in o.replace("*, ", "") for o in options):
                return None
            names = {p[1] for o in options for p in _option(o)}
        else:
            return None
        if kind.startswith("c"):
            names |= {a for a, n in _PARSER_ALIASES.items() if n in names}
        return qualified, frozenset(names)
    return None


def keyword_error(qualified: str, bound: bool, args: list, kwargs: dict, binds: Any) -> str | None:
    """PyTorch's words for a call given a keyword its function does not take
    (`torch.relu(x, inplace=True)`: `relu() got an unexpected keyword argument 'inplace'`;
    `x.relu(inplace=True)`: `TensorBase.relu() takes no keyword arguments`)."""
    from .torch_signatures import SIGNATURES

    kind, shown, params = _parse(SIGNATURES[qualified])
    given = list(args[1:] if bound else args)
    if kind == "py":
        if params and params[0][0] == "self":
            given = [None, *given]
        return python_call_error(shown, params or [], len(given), list(kwargs))
    if bound and params == []:
        return f"TensorBase.{shown}() takes no keyword arguments"
    if params is not None:
        found = None if bound else _error_of(qualified, given, kwargs, binds)
        return found[1] if found else parser_call_error(shown, params, len(given), list(kwargs))
    found = None if bound else _error_of(qualified, given, kwargs, binds)
    if found is not None:
        return found[1]
    names = keyword_names(qualified, False, [], lambda q: True)
    unknown = [k for k in kwargs if names is not None and k not in names[1]]
    return f"{shown}() got an unexpected keyword argument '{unknown[0]}'" if unknown else None


def _method_options(qualified: str) -> list[str] | None:
    """A tensor method's overloads as its parser lists them, from torch's function of the
    name (`torch.sum`'s without its `Tensor input` and `out`: `x.sum`'s), or None."""
    from .torch_signatures import PARSER

    recorded = PARSER.get("torch." + qualified.partition(".")[2])
    if recorded is None:
        return None
    options = []
    for text in recorded.split("|")[1:]:
        items = text[1:-1].split(", ")
        if not items or items[0] != "Tensor input":
            if items and items[0].endswith(" self"):
                continue  # (`pow(Number self, Tensor exponent)`: no method of a tensor)
            return None
        items = [i for i in items[1:] if not i.endswith((" out = None", " out"))]
        if items and items[-1] == "*":
            items.pop()
        options.append("(" + ", ".join(items) + ")")
    return options or None


# Tensor methods with no torch function of the name, as their parser words a wrong dim
_OWN_METHODS = {"Tensor.size": ["(int dim)"], "Tensor.stride": ["(int dim)"]}


def function_type_error(name: str, args: list, kwargs: dict) -> str | None:
    """`method_type_error` for F.softmax and its kin, whose Python function hands its dim to
    the tensor's method (`F.softmax(x, dim="C")`: `softmax(): argument 'dim' (position 1)
    must be int, not str`)."""
    from .torch_signatures import SIGNATURES

    for qualified in qualified_name(name, False, args):
        method = _WITH_DIM.get(qualified)
        if method is None or not args:
            continue
        _, _, params = _parse(SIGNATURES[qualified])
        names = [n for n, _, _ in params or []]
        bound = dict(zip(names, args, strict=False))
        bound.update(kwargs)
        if "dim" not in bound or bound["dim"] is None:
            return None
        return method_type_error(f"Tensor.{method}", [args[0], bound["dim"]], {})
    return None


def _single_method_option(qualified: str) -> list[str] | None:
    """A tensor method's one signature as its parser words it, from torch's function of the
    name recorded with one signature (`cumsum(Tensor input, int dim, ...)`: `(int dim, ...)`),
    or None."""
    from .torch_signatures import PARSER

    recorded = PARSER.get("torch." + qualified.partition(".")[2])
    if recorded is None or "|" in recorded or not recorded.startswith("(Tensor input"):
        return None
    items = recorded[1:-1].split(", ")[1:]
    items = [i for i in items if not i.endswith((" out = None", " out"))]
    if items and items[-1] == "*":
        items.pop()
    return ["(" + ", ".join(items) + ")"]


def _method_missing(shown: str) -> str | None:
    """`x.tile()`: the parser's words for a method called without the one argument its
    torch function requires after the input (`tile() missing 1 required positional
    arguments: "dims"`), or None."""
    from .torch_signatures import SIGNATURES

    text = SIGNATURES.get("torch." + shown)
    if text is None:
        return None
    kind, _, params = _parse(text)
    if kind == "py" or not params or params[0][0] != "input":
        return None
    required = [p for p in params[1:] if p[1] in ("P", "PK") and not p[2]]
    if len(required) != 1:
        return None
    return f'{shown}() missing 1 required positional arguments: "{required[0][0]}"'


def _method_overload_error(qualified: str, shown: str, given: list, kwargs: dict) -> str | None:
    """The parser's words for a call of a tensor method of several overloads that none of
    them takes (`x.sum(axis2=0)`: "received an invalid combination of arguments ..."), None
    where one may take it or nothing is known."""
    from .torch_signatures import NUMBERS_AS_TENSORS

    options = _method_options(qualified)
    if options is None:
        return None
    numbers = shown in NUMBERS_AS_TENSORS
    parsed = [_option(o) for o in options]
    if any(_option_fits(o, given, kwargs, numbers) is not False for o in parsed):
        return None
    n = len(given) + len(kwargs)
    plausible = [o for o in parsed if sum(1 for p in o if p[2] is None) <= n <= len(o)]
    if len(plausible) == 1:
        return _signature_error(shown, plausible[0], given, kwargs)
    return _invalid_combination(shown, options, given, kwargs)


def method_type_error(name: str, args: list, kwargs: dict) -> str | None:
    """The parser's words for a tensor method's call that none of its signatures takes by
    the types of its arguments (`x.sum("C")`, `x.cumsum(1.5)`: a dimension given by a name,
    as PyTorch's removed named tensors did, or a float), from the types PyTorch recorded for
    torch's function of the name; None where a signature may take it or nothing is known."""
    from .torch_signatures import NUMBERS_AS_TENSORS, SIGNATURES

    for qualified in qualified_name(name, True, args):
        text = SIGNATURES.get(qualified)
        if text is None:
            continue
        kind, shown, params = _parse(text)
        if not kind.startswith("c"):
            return None
        given = list(args[1:])
        if params is None and qualified not in _OWN_METHODS:
            return _method_overload_error(qualified, shown, given, kwargs)
        options = (
            _method_options(qualified)
            or _single_method_option(qualified)
            or _OWN_METHODS.get(qualified)
        )
        if options is None or len(options) != 1:
            return None
        option = _option(options[0])
        if _option_fits(option, given, kwargs, shown in NUMBERS_AS_TENSORS) is not False:
            return None
        return _signature_error(shown, option, given, kwargs)
    return None


def forward_error(module: str, nargs: int, keywords: list[str]) -> str | None:
    """Python's words for a call of a torch.nn module (`nn.MSELoss()(out)`) that does not fit
    its `forward`: `MSELoss.forward() missing 1 required positional argument: 'target'`."""
    from .torch_signatures import SIGNATURES

    text = SIGNATURES.get(f"nn.{module}.forward")
    if text is None:
        return None
    _, shown, params = _parse(text)
    return python_call_error(shown, params or [], nargs + 1, keywords)


def forward_qualname(module: str) -> str | None:
    """The qualified name of PyTorch's `nn.<module>.forward` (`ReLU.forward`, the class that
    defines it: `_BatchNorm.forward` for BatchNorm1d); None where the table has none."""
    from .torch_signatures import SIGNATURES

    text = SIGNATURES.get(f"nn.{module}.forward")
    return None if text is None else _parse(text)[1]


def forward_params(module: str) -> tuple[int, int, list[Param]] | None:
    """The parameters of PyTorch's `nn.<module>.forward` (less `self`), with the least and
    most positional inputs it takes; None where the table has no such forward."""
    from .torch_signatures import SIGNATURES

    text = SIGNATURES.get(f"nn.{module}.forward")
    if text is None:
        return None
    params = (_parse(text)[2] or [])[1:]
    if any(k in ("VP", "VK") for _, k, _ in params):
        return None
    positional = [p for p in params if p[1] in ("P", "PK")]
    required = sum(1 for p in positional if not p[2])
    return required, len(positional), params


def python_call_error(
    qualname: str, params: list[Param], nargs: int, keywords: list[str]
) -> str | None:
    """CPython 3.11's words (`ceval.c`'s order: keywords, then too many positional
    arguments, then the missing positional and keyword-only ones)."""
    positional = [p for p in params if p[1] in ("P", "PK")]
    varargs = any(p[1] == "VP" for p in params)
    varkw = any(p[1] == "VK" for p in params)
    kinds = {n: k for n, k, _ in params}
    filled = {p[0] for p in positional[:nargs]}
    for k in keywords:
        kind = kinds.get(k)
        if kind in (None, "VP", "VK") or (kind == "P" and not varkw):
            if kind == "P":
                return (
                    f"{qualname}() got some positional-only arguments passed as keyword "
                    f"arguments: '{k}'"
                )
            if not varkw:
                return f"{qualname}() got an unexpected keyword argument '{k}'"
            continue
        if k in filled:
            return f"{qualname}() got multiple values for argument '{k}'"
        filled.add(k)
    if nargs > len(positional) and not varargs:
        defaults = sum(1 for p in positional if p[2])
        kwonly_given = sum(1 for k in keywords if kinds.get(k) == "K")
        if defaults:
            sig, plural = f"from {len(positional) - defaults} to {len(positional)}", True
        else:
            sig, plural = str(len(positional)), len(positional) != 1
        extra = ""
        if kwonly_given:
            extra = (
                f" positional argument{'s' if nargs != 1 else ''} (and {kwonly_given} "
                f"keyword-only argument{'s' if kwonly_given != 1 else ''})"
            )
        was = "was" if nargs == 1 and not kwonly_given else "were"
        return (
            f"{qualname}() takes {sig} positional argument{'s' if plural else ''} but "
            f"{nargs}{extra} {was} given"
        )
    for kind, group in (
        ("positional", [p for p in positional if not p[2]]),
        ("keyword-only", [p for p in params if p[1] == "K" and not p[2]]),
    ):
        missing = [n for n, _, _ in group if n not in filled]
        if missing:
            return (
                f"{qualname}() missing {len(missing)} required {kind} "
                f"argument{'s' if len(missing) != 1 else ''}: {_python_list(missing)}"
            )
    return None


def _python_list(names: list[str]) -> str:
    quoted = [f"'{n}'" for n in names]
    if len(quoted) == 1:
        return quoted[0]
    if len(quoted) == 2:
        return f"{quoted[0]} and {quoted[1]}"
    return ", ".join(quoted[:-1]) + f", and {quoted[-1]}"


def parser_call_error(
    name: str, params: list[Param], nargs: int, keywords: list[str]
) -> str | None:
    """PyTorch's argument parser's words for a call of one signature (its order: too many
    positional arguments, the first missing one (and every required one after it), then the
    keywords it does not take). A signature of `*size` (`view`, `permute`) is not here."""
    if any(p[1] in ("VP", "VK") for p in params):
        return None
    positional = [p for p in params if p[1] in ("P", "PK")]
    if nargs > len(positional):
        most = len(positional)
        least = sum(1 for p in positional if not p[2])
        if least != most:
            return (
                f"{name}() takes from {least} to {most} positional arguments but {nargs} were given"
            )
        return (
            f"{name}() takes {most} positional argument{'' if most == 1 else 's'} but {nargs} "
            f"{'was' if nargs == 1 else 'were'} given"
        )
    for i, (n, _, default) in enumerate(params):
        # (a parameter is found by its NumPy name too, `axis=` for `dim`; the keywords left
        # over are then named by the parser's own names only: `axis` among them is unexpected)
        given = (
            (i < nargs and i < len(positional))
            or n in keywords
            or any(_PARSER_ALIASES.get(k) == n for k in keywords)
        )
        if not given and not default:
            missing = [m for m, _, d in params[i:] if not d]
            # (the parser's plural: "1 ... arguments", "2 ... argument")
            return (
                f"{name}() missing {len(missing)} required positional "
                f"argument{'s' if len(missing) == 1 else ''}: "
                + ", ".join(f'"{m}"' for m in missing)
            )
    names = [p[0] for p in params]
    for k in keywords:
        if k not in names:
            return f"{name}() got an unexpected keyword argument '{k}'"
        if names.index(k) < nargs:
            return f"{name}() got multiple values for argument '{k}'"
    return None


# --- the parser's types (PARSER in torch_signatures): a wrong type before any work ------------

# (type, name, default shown, keyword-only) of each overload's parameters
_Option = list[tuple[str, str, str | None, bool]]
_OPTIONS: dict[str, _Option] = {}


def _option(text: str) -> _Option:
    """`(Tensor input, *, Number alpha = 1)` -> [("Tensor", "input", None, False), ...]."""
    got = _OPTIONS.get(text)
    if got is not None:
        return got
    params: _Option = []
    keyword_only = False
    for item in text[1:-1].split(", "):
        if not item:
            continue  # (`()`: an overload of no parameters)
        if item == "*":
            keyword_only = True
            continue
        decl, has_default, default = item.partition(" = ")
        kind, _, name = decl.rpartition(" ")
        params.append((kind, name, default if has_default else None, keyword_only))
    _OPTIONS[text] = params
    return params


def _is_number(v: Any) -> bool:
    import numpy as np

    return isinstance(v, (int, float, complex, np.number, np.bool_))


def _fits(kind: str, v: Any, numbers_as_tensors: bool) -> bool | None:
    """Whether the parser takes `v` for a parameter of type `kind` (None: not known here, so
    taken to fit: a call is refused only where every overload surely does not fit)."""
    import numpy as np

    from ..core import dtypes
    from ..core.tensor import Tensor

    if kind == "Tensor":
        return isinstance(v, Tensor) or (numbers_as_tensors and _is_number(v))
    if kind == "Number":
        if isinstance(v, Tensor):  # (a 0-d tensor that does not require grad is one)
            return None if v.ndim == 0 else False
        return _is_number(v)
    if kind in ("int", "float", "bool"):
        if isinstance(v, str):
            return False  # (a name where a number is due: never one to the parser)
        if isinstance(v, (Tensor, bool, np.generic)):
            return None
        if kind == "int":
            return isinstance(v, int)
        if kind == "float":
            return isinstance(v, (int, float))
        return False if isinstance(v, (int, float)) else None
    if kind.startswith("tuple of"):
        if isinstance(v, (list, tuple, Tensor, np.ndarray)) or (
            kind == "tuple of ints" and isinstance(v, (int, np.integer))
        ):
            return None  # (the parser's own words for a wrong element)
        return False
    if kind == "torch.dtype":  # (PyTorch's parser takes Python's bool, int, float too)
        return (
            type(v).__name__ == "DType"
            or isinstance(v, np.dtype)
            or dtypes.python_type_dtype(v) is not None
        )
    if kind == "str":
        return isinstance(v, str)
    return None


def _option_fits(
    option: _Option, args: list, kwargs: dict, numbers_as_tensors: bool
) -> bool | None:
    """Whether one overload takes the call (as the parser binds it: positional arguments in
    order, then keywords), None where that is not known here."""
    positional = [p for p in option if not p[3]]
    if len(args) > len(positional):
        return False
    names = {p[1] for p in option}
    if any(k not in names for k in kwargs):
        return False
    unsure = False
    for i, (kind, name, default, keyword_only) in enumerate(option):
        if not keyword_only and i < len(args):
            if name in kwargs:
                return False
            v = args[i]
        elif name in kwargs:
            v = kwargs[name]
        elif default is not None:
            continue
        else:
            return False
        if v is None and default == "None":
            continue
        fits = _fits(kind, v, numbers_as_tensors)
        if fits is False:
            return False
        unsure = unsure or fits is None
    return None if unsure else True


# How the interpreter names a program's value's class as Python's `type(v).__name__` would
# (`module`, `function`, a class's own name: set by `lang.calls`; the surface does not know
# the interpreter's values)
python_type_name: Any = None


def _display_type(v: Any) -> str:
    import numpy as np

    from ..core.tensor import Tensor, pytype_name

    if isinstance(v, Tensor):
        return "Tensor"
    if type(v).__name__ == "DType" or isinstance(v, np.dtype):
        return "torch.dtype"
    if type(v).__name__ == "Device":
        return "torch.device"
    if python_type_name is not None and not isinstance(v, (int, float, str, list, tuple)):
        return python_type_name(v)
    return pytype_name(v)


def _literal_match(item: str, v: Any) -> bool:
    """invalid_arguments.cpp's own test of an argument against one item of an overload's text
    (its type words taken literally: `Tensor min =` is never met)."""
    kind = item.rpartition(" ")[0]
    if kind.startswith("["):  # `[Tensor or None]`
        if v is None:
            return True
        kind = kind[1:].removesuffix(" or None]")
    name = _display_type(v)
    if kind == "float":
        return name in ("float", "int")
    return name == kind


def _described(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        inner = ", ".join(_display_type(u) for u in v)
        if isinstance(v, tuple):
            return f"tuple of ({inner}{',' if len(v) == 1 else ''})"
        return f"list of [{inner}]"
    return _display_type(v)


def _invalid_combination(shown: str, options: list[str], args: list, kwargs: dict) -> str | None:
    """The parser's "received an invalid combination of arguments" for a call none of the
    overloads take (the listing of invalid_arguments.cpp; None where its words would depend
    on more than is known here)."""
    from ..base import limits

    # (its listing names the type of every element of a list argument, for each overload)
    elements = sum(len(v) for v in (*args, *kwargs.values()) if isinstance(v, (list, tuple)))
    limits.STRING_CHARS.check(
        elements * 8 * len(options), "the length of the parser's error message (estimated)"
    )
    # (the parser's keywords are a C++ unordered_map: it walks them last given first)
    keywords = list(reversed(kwargs))
    got = [_display_type(a) for a in args] + [f"{k}={_display_type(kwargs[k])}" for k in keywords]
    desc = "(" + ", ".join(got) + ("" if args or not kwargs else ", ") + ")"
    head = f"{shown}() received an invalid combination of arguments - "
    n = len(args) + len(kwargs)

    def formatted(text: str) -> str | None:
        items = text[1:-1].split(", ")
        parts = []
        for i in range(n):
            if i < len(args):
                v, label = args[i], ""
            else:
                key = items[i].rpartition(" ")[2] if i < len(items) else None
                if key not in kwargs:
                    return None  # (a lookup PyTorch's own code would fail)
                v, label = kwargs[key], f"{key}="
            ok = i < len(items) and _literal_match(items[i], v)
            mark = "" if ok else "!"
            parts.append(f"{mark}{label}{_described(v)}{mark}")
        return "(" + ", ".join(parts) + ("" if args or not kwargs else ", ") + ")"

    def unmatched_keywords(text: str) -> list[str]:
        items = text[1:-1].split(", ")
        start = max(len(items) - len(kwargs), 0)
        names = [it.rpartition(" ")[2] for it in items[start:]]
        return [k for k in keywords if k not in names]

    if len(options) == 1:
        text = options[0]
        wrong = unmatched_keywords(text) if kwargs else []
        if wrong:
            return head + "got unrecognized keyword arguments: " + ", ".join(wrong)
        if len(text[1:-1].split(", ")) == n:
            shown_args = formatted(text)
            if shown_args is None:
                return None
        else:
            shown_args = desc
        return f"{head}got {shown_args}, but expected {text}"
    lines = [f"{head}got {desc}, but expected one of:"]
    for text in options:
        lines.append(f" * {text}")
        if len(text[1:-1].split(", ")) == n:
            wrong = unmatched_keywords(text) if kwargs else []
            if wrong:
                lines.append(
                    "      didn't match because some of the keywords were incorrect: "
                    + ", ".join(wrong)
                )
            else:
                shown_args = formatted(text)
                if shown_args is None:
                    return None
                lines.append(
                    "      didn't match because some of the arguments have invalid types: "
                    + shown_args
                )
    return "\n".join(lines) + "\n"


def _signature_error(shown: str, option: _Option, args: list, kwargs: dict) -> str | None:
    """The parser's error for the one overload a call could be of (python_arg_parser's
    order: too many positional arguments, then each parameter missing or of a wrong type,
    then the keywords); None where it is not surely one of these."""
    from .torch_signatures import NUMBERS_AS_TENSORS

    params: list[Param] = [(n, "K" if kw else "PK", d is not None) for _, n, d, kw in option]
    positional = [p for p in option if not p[3]]
    if len(args) > len(positional):
        return parser_call_error(shown, params, len(args), list(kwargs))
    for i, (kind, name, default, keyword_only) in enumerate(option):
        if not keyword_only and i < len(args):
            v, where = args[i], f"argument '{name}' (position {i + 1})"
        elif name in kwargs:
            v, where = kwargs[name], f"argument '{name}'"
        elif default is not None:
            continue
        else:
            return parser_call_error(shown, params, len(args), list(kwargs))
        if v is None and default == "None":
            continue
        fits = _fits(kind, v, shown in NUMBERS_AS_TENSORS)
        if fits is None:
            return None
        if not fits:
            return f"{shown}(): {where} must be {kind}, not {_display_type(v)}"
    return parser_call_error(shown, params, len(args), list(kwargs))


def parser_error(
    name: str, args: list, kwargs: dict, binds: Any = None, is_it: Any = None
) -> tuple[str, str] | None:
    """PyTorch's error for a call of the function the program called `name` whose first
    argument is not a tensor, where PyTorch refuses it before any work, as (Python class,
    words): a C++ builtin's argument parser's TypeError, worked out from the types it recorded
    (`digamma(): argument 'input' (position 1) must be Tensor, not float`, clamp's "invalid
    combination" listing), or a Python function's recorded words for such a first argument
    (F.softmax(2.0): `'float' object has no attribute 'dim'`; `binds()` says whether the call
    fits its signature: if not, Python's words come first; `is_it(qualified)` whether the
    function called is PyTorch's of that name). None where the call fits, or may fit, or
    nothing is recorded."""
    from .torch_signatures import SIGNATURES

    found = [
        q
        for q in _candidates(name, args)
        if q in SIGNATURES and (is_it is None or is_it(q))  # (`math.sqrt` is not torch.sqrt)
    ]
    if len({SIGNATURES[q].partition(" ")[0] == "py" for q in found}) > 1:
        # a bare name of gradcli's one function for F.X (Python) and torch.X (C++): their
        # words where they agree (`relu(): argument 'input' ...`)
        words = {_error_of(q, args, kwargs, binds) for q in found}
        return words.pop() if len(words) == 1 else None
    return _error_of(found[0], args, kwargs, binds) if found else None


# F.softmax and its kin given a dim: PyTorch's Python function calls the first argument's
# method (`input.softmax(dim)`; softmin's `(-input).softmax(dim)`), so a number there is
# Python's AttributeError naming that method (the table records the call without a dim).
_WITH_DIM = {"F.softmax": "softmax", "F.log_softmax": "log_softmax", "F.softmin": "softmax"}


def _softmax_first(
    method: str, params: list[Param], args: list, kwargs: dict
) -> tuple[str, str] | None:
    from ..core.tensor import Tensor

    if not args or isinstance(args[0], Tensor) or type(args[0]) not in (int, float):
        return None
    names = [n for n, _, _ in params]
    if any(k not in names for k in kwargs) or len(args) > len(names):
        return None
    bound = dict(zip(names, args, strict=False))
    bound.update(kwargs)
    if bound.get("dim") is None:
        method = "dim"  # (its implicit dim: `input.dim()` first)
    return "AttributeError", f"'{type(args[0]).__name__}' object has no attribute '{method}'"


def _error_of(qualified: str, args: list, kwargs: dict, binds: Any) -> tuple[str, str] | None:
    """`parser_error` of the table's name `qualified`."""
    from .torch_signatures import NUMBERS_AS_TENSORS, PARSER, PYTHON_FIRST, SIGNATURES

    text = SIGNATURES[qualified]
    kind, shown, params = _parse(text)
    if kind == "py":
        with_dim = _WITH_DIM.get(qualified)
        if with_dim is not None:
            found = _softmax_first(with_dim, params or [], args, kwargs)
            if found is not None:
                return found
        first = PYTHON_FIRST.get(qualified)
        if first is None or not args or (binds is not None and not binds()):
            return None
        return _python_first(first, params or [], args, kwargs)
    recorded = PARSER.get(qualified)
    if recorded is None or not kind.startswith("c"):
        return None
    first, *options = recorded.split("|")
    numbers = shown in NUMBERS_AS_TENSORS
    if params is not None and first.startswith("("):
        # one signature, its parameters' types recorded
        option = _option(first)
        if _option_fits(option, args, kwargs, numbers) is not False:
            return None
        words = _signature_error(shown, option, args, kwargs)
        return None if words is None else ("TypeError", words)
    if not options:
        # the type of the first parameter, as the parser words a call of it alone (of
        # one signature: of any call whose first argument is not of that type)
        if not first or not args or (params is None and (len(args) > 1 or kwargs)):
            return None
        kind_first, _, name_first = first.rpartition(" ")
        if _fits(kind_first, args[0], numbers) is not False:
            return None
        if params is not None:
            positional = [p for p in params if p[1] in ("P", "PK")]
            if len(args) > len(positional):
                return "TypeError", parser_call_error(shown, params, len(args), list(kwargs))
        return "TypeError", (
            f"{shown}(): argument '{name_first}' (position 1) must be {kind_first}, not "
            f"{_display_type(args[0])}"
        )
    if kind != "c" and int(kind[1:]) > len(options) and len(args) >= 3:
        return None  # (a hidden, deprecated overload: `add(x, 2, y)`)
    parsed = [_option(o) for o in options]
    for option in parsed:
        if _option_fits(option, args, kwargs, numbers) is not False:
            return None
    n = len(args) + len(kwargs)
    plausible = [o for o in parsed if sum(1 for p in o if p[2] is None) <= n <= len(o)]
    if len(plausible) == 1:
        words = _signature_error(shown, plausible[0], args, kwargs)
    else:
        words = _invalid_combination(shown, options, args, kwargs)
    return None if words is None else ("TypeError", words)


def resolves(name: str, args: list, is_it: Any) -> bool:
    """Whether a name the program called a function by is one of the table's for it
    (`is_it(qualified)`): `f = torch.digamma; f(2.0)` is not, by its name."""
    from .torch_signatures import SIGNATURES

    return any(q in SIGNATURES and is_it(q) for q in _candidates(name, args))


def _candidates(name: str, args: list) -> list[str]:
    """The table's names a call's name could be: a dotted name is its first (`F.mse_loss` is
    not torch.mse_loss, whose C++ signature takes another reduction), a bare one (imported
    from a module) any."""
    from .torch_signatures import SIGNATURES

    found = qualified_name(name, False, args)
    if "." in name:
        named = [q for q in found if q in SIGNATURES]
        return named[:1]
    return found


def _python_first(
    recorded: str, params: list[Param], args: list, kwargs: dict
) -> tuple[str, str] | None:
    """A Python function's recorded words for a first argument of a type it does not take:
    `fis:TypeError: relu(): ... not {}` (the kinds of value they were measured for: f a
    float, i an int, s a str), then `|` and the words with inplace=True."""
    import numpy as np

    from ..core.tensor import Tensor

    v = args[0]
    if isinstance(v, Tensor):
        return None
    # (recorded for a float, an int, a str, and for a value of a class of none of PyTorch's
    # kinds: None, a dict, a function, a module...; a list may be taken as a sequence, a
    # NumPy array has attributes of its own)
    kind = {float: "f", int: "i", str: "s"}.get(type(v), "")
    if not kind and isinstance(v, (bool, list, tuple, np.ndarray, np.generic)):
        return None
    # (recorded for a call of the one argument, with inplace=, or with a tensor second:
    # another argument could be checked first, `F.dropout`'s p)

    plain, _, rest = recorded.partition("|")
    inplace, _, with_tensor = rest.partition("|")
    names = [n for n, _, _ in params]
    if names[:1] == ["device"] and (v is None or type(v).__name__ == "Device"):
        return None  # (torch.set_default_device(None / torch.device('cpu')): its own values)
    if any(k != "inplace" for k in kwargs):
        return None
    if len(args) == 2 and isinstance(args[1], Tensor) and not kwargs:
        plain = with_tensor
    elif len(args) == 2 and names[1:2] == ["inplace"] and not kwargs:
        plain = inplace if args[1] else plain
    elif len(args) > 1:
        return None
    elif kwargs.get("inplace"):
        plain = inplace
    kinds, _, words = plain.partition(":")
    if (kind and kind not in kinds) or not words:
        return None
    cls, _, text = words.partition(": ")
    if cls == "AttributeError" and _display_type(v) in ("module", "type"):
        return None  # (Python words these otherwise: "module 'torch' has no attribute 'dim'")
    return cls, text.replace("{}", _display_type(v))


# the types of a first parameter a call is checked for before it runs (not `tuple of ints`,
# `Number`: torch.zeros(2, 3), torch.arange(5) are not slowed down)
_CHECKED_FIRST = ("Tensor ", "tuple of Tensors ", "torch.dtype ", "int ")


def tensor_first_names() -> set[str]:
    """The names of the first parameters PyTorch's parser wants a tensor for (of the C++
    builtins of the table: `input`, `condition`, `A`...)."""
    from .torch_signatures import PARSER, PYTHON_FIRST, SIGNATURES

    out = set()
    for qualified in PYTHON_FIRST:
        params = _parse(SIGNATURES[qualified])[2]
        if params:
            out.add(params[0][0])
    for recorded in PARSER.values():
        first, *options = recorded.split("|")
        if first.startswith("("):
            options = [first, *options]
        elif first.startswith(_CHECKED_FIRST):
            out.add(first.rpartition(" ")[2])
        for o in options:
            kind, name = _option(o)[0][:2] if _option(o) else ("", "")
            if f"{kind} ".startswith(_CHECKED_FIRST):
                out.add(name)
    return out
