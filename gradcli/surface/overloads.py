"""PyTorch's deprecated overloads of the BLAS-like sums, with a leading Number beta (and alpha)
or value: `torch.addmm(beta, input, alpha, mat1, mat2)`, `M.addmm(beta, mat1, mat2)`,
`x.addcmul_(value, t1, t2)` (code written for PyTorch 0.4 and hand-written optimizers). PyTorch
still accepts them, warning once per process (one warning for all of them: the first such
call warns) with its argument parser's text, and computes `beta * input + alpha * (...)`.

`torch_form(name, fn)` and `method_form(name, fn)` wrap the function of the current signature
`fn(input, a, b, *, beta=1, alpha=1)` (or `value=1`): the torch function and the Tensor method
(the in-place method's warning names `name_`)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from ..base.errors import GradcliError
from ..core import hooks
from ..core.tensor import Tensor, typename

# The two tensors each takes, as PyTorch's signatures name them.
PARTS = {
    "addmm": ("mat1", "mat2"),
    "addmv": ("mat", "vec"),
    "addr": ("vec1", "vec2"),
    "baddbmm": ("batch1", "batch2"),
    "addbmm": ("batch1", "batch2"),
    "addcmul": ("tensor1", "tensor2"),
    "addcdiv": ("tensor1", "tensor2"),
}
# Those with a second current overload of the torch function (an out_dtype).
_OUT_DTYPE = ("addmm", "baddbmm")
# (one key for every deprecated overload: PyTorch's TORCH_WARN_ONCE in its argument parser)
_ONCE = "torch: a deprecated overload"


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def warning_text(name: str, method: bool, alpha: bool) -> str:
    """PyTorch's text for the deprecated overload of `name` (the method's when `method`, with
    alpha when `alpha`)."""
    base = name.rstrip("_")
    a, b = PARTS[base]
    scale = ("value",) if base in ("addcmul", "addcdiv") else ("beta", "alpha")
    kw = ", ".join(f"Number {s} = 1" for s in scale)
    if method:
        lead = ", ".join(f"Number {s}" for s in (scale if alpha else scale[:1]))
        old = f"{name}({lead}, Tensor {a}, Tensor {b})"
        new = [f"{name}(Tensor {a}, Tensor {b}, *, {kw})"]
    elif base in ("addcmul", "addcdiv"):
        old = f"{name}(Tensor input, Number value, Tensor {a}, Tensor {b}, *, Tensor out = None)"
        new = [f"{name}(Tensor input, Tensor {a}, Tensor {b}, *, {kw}, Tensor out = None)"]
    else:
        middle = "Number alpha, " if alpha else ""
        old = (
            f"{name}(Number beta, Tensor input, {middle}Tensor {a}, Tensor {b}, *, "
            "Tensor out = None)"
        )
        new = [f"{name}(Tensor input, Tensor {a}, Tensor {b}, *, {kw}, Tensor out = None)"]
        if name in _OUT_DTYPE:
            new.append(
                f"{name}(Tensor input, Tensor {a}, Tensor {b}, torch.dtype out_dtype, *, {kw}, "
                "Tensor out = None)"
            )
    return (
        f"This overload of {name} is deprecated:\n\t{old}\n"
        "Consider using one of the following signatures instead:\n\t"
        + "\n\t".join(new)
        + " (Triggered internally at /__w/pytorch/pytorch/torch/csrc/utils/"
        "python_arg_parser.cpp:1841.)"
    )


def _warn(name: str, method: bool, alpha: bool) -> None:
    hooks.warn(warning_text(name, method, alpha), once=_ONCE)


def _invalid(name: str, given: tuple) -> GradcliError:
    shown = ", ".join("Tensor" if isinstance(v, Tensor) else typename(v) for v in given)
    return GradcliError(
        f"{name}() received an invalid combination of arguments - got ({shown})",
        hint=f"write {name}(input, {', '.join(PARTS[name.rstrip('_')])}, beta=..., alpha=...)",
    ).mirror("TypeError")


def _signature(names: tuple[str, ...]) -> inspect.Signature:
    """`(n0, n1, n2, *legacy, beta=1, alpha=1)` with PyTorch's names of the parameters."""
    P = inspect.Parameter
    return inspect.Signature(
        [P(n, P.POSITIONAL_OR_KEYWORD) for n in names]
        + [P("legacy", P.VAR_POSITIONAL)]
        + [P(k, P.KEYWORD_ONLY, default=1) for k in ("beta", "alpha")]
    )


def torch_form(name: str, fn: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """`torch.name(input, a, b, *, beta=1, alpha=1)`, and the deprecated `torch.name(beta,
    input, [alpha,] a, b)`."""
    sig = _signature(("input", *PARTS[name]))

    def call(*args: Any, **kwargs: Any) -> Tensor:
        got = sig.bind(*args, **kwargs).arguments
        input, a, b = (got[n] for n in sig.parameters if n not in _REST)  # noqa: A001
        legacy = got.get("legacy", ())
        beta, alpha = got.get("beta", 1), got.get("alpha", 1)
        if not legacy:
            return fn(input, a, b, beta=beta, alpha=alpha)
        if not _number(input) or len(legacy) > 2 or beta != 1 or alpha != 1:
            raise _invalid(name, (input, a, b, *legacy))
        if len(legacy) == 2:  # (beta, input, alpha, a, b)
            if not _number(b):
                raise _invalid(name, (input, a, b, *legacy))
            _warn(name, False, True)
            return fn(a, legacy[0], legacy[1], beta=input, alpha=b)
        _warn(name, False, False)  # (beta, input, a, b)
        return fn(a, b, legacy[0], beta=input)

    return _named(call, name, fn, sig)


def method_form(name: str, fn: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """`x.name(a, b, *, beta=1, alpha=1)`, and the deprecated `x.name(beta, [alpha,] a, b)`
    (`name` ends with `_` for the in-place method's warning)."""
    sig = _signature(("self", *PARTS[name.rstrip("_")]))

    def call(*args: Any, **kwargs: Any) -> Tensor:
        got = sig.bind(*args, **kwargs).arguments
        self, a, b = (got[n] for n in sig.parameters if n not in _REST)
        legacy = got.get("legacy", ())
        beta, alpha = got.get("beta", 1), got.get("alpha", 1)
        if not legacy:
            return fn(self, a, b, beta=beta, alpha=alpha)
        if not _number(a) or len(legacy) > 2 or beta != 1 or alpha != 1:
            raise _invalid(name, (a, b, *legacy))
        if len(legacy) == 2:  # (beta, alpha, a, b)
            if not _number(b):
                raise _invalid(name, (a, b, *legacy))
            _warn(name, True, True)
            return fn(self, legacy[0], legacy[1], beta=a, alpha=b)
        _warn(name, True, False)  # (beta, a, b)
        return fn(self, b, legacy[0], beta=a)

    return _named(call, name.rstrip("_"), fn, sig)


_REST = ("legacy", "beta", "alpha")


def _named(call: Any, name: str, fn: Any, sig: inspect.Signature) -> Any:
    call.__name__ = call.__qualname__ = name
    call.__doc__ = fn.__doc__
    call.__signature__ = sig
    return call


def value_warning(name: str, method: bool) -> None:
    """The warning of the deprecated `addcmul(input, value, t1, t2)` / `x.addcmul(value, t1,
    t2)` (and addcdiv, and their in-place methods)."""
    hooks.warn(warning_text(name, method, False), once=_ONCE)
