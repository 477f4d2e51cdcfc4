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
        if params is None:
            return None
        given = list(args[1:] if bound else args)
        if kind == "py":
            if params and params[0][0] == "self":
                given = [None, *given]  # the object (a module's, an optimizer's, a tensor's)
            return python_call_error(shown, params, len(given), list(kwargs))
        if bound and not params:
            # a method of no arguments (METH_NOARGS): CPython's words, of TensorBase
            if kwargs:
                return f"TensorBase.{shown}() takes no keyword arguments"
            return f"TensorBase.{shown}() takes no arguments ({len(given)} given)"
        if (
            shown not in _NUMBER_OVERLOADS
            and given
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


def forward_error(module: str, nargs: int, keywords: list[str]) -> str | None:
    """Python's words for a call of a torch.nn module (`nn.MSELoss()(out)`) that does not fit
    its `forward`: `MSELoss.forward() missing 1 required positional argument: 'target'`."""
    from .torch_signatures import SIGNATURES

    text = SIGNATURES.get(f"nn.{module}.forward")
    if text is None:
        return None
    _, shown, params = _parse(text)
    return python_call_error(shown, params or [], nargs + 1, keywords)


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
        given = (i < nargs and i < len(positional)) or n in keywords
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
