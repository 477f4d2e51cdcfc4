"""torch.special, and the torch.X / x.X of the special functions (`ops.special`): PyTorch's
argument conventions (integer tensors computed in the default float dtype, numbers on one
side of xlogy / copysign / zeta with PyTorch's node names for them, `n` and `p` as ints),
its errors for misuse, float_power (float64 whatever the inputs), ndtr (a composition, as in
PyTorch), and torch.special's aliases of functions gradcli has under torch (expit, gammaln,
psi, multigammaln, ...)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core.dtypes import scalar_type_name
from ..core.op import Op, apply
from ..core.tensor import Settings, Tensor, typename
from ..ops import arithmetic as A
from ..ops import special as SP
from ..ops.arithmetic import floating, named, operands, tensor_arg
from . import elementwise as EW
from .declare import declare

_NUMBER = (int, float)


def _is_number(v: Any) -> bool:
    return isinstance(v, _NUMBER) and not isinstance(v, bool)


def _int_arg(fn: str, name: str, pos: int, v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise GradcliError(
            f"{fn}(): argument '{name}' (position {pos}) must be int, not {typename(v)}"
        ).mirror("TypeError")
    return v


def _unary(op: Op) -> Any:
    def f(input: Any) -> Tensor:
        return apply(op, floating(tensor_arg(input, "input")))

    f.__name__ = op.name
    return f


erfinv = _unary(SP.erfinv)
erfc = _unary(SP.erfc)
erfcx = _unary(SP.erfcx)
ndtri = _unary(SP.ndtri)
log_ndtr = _unary(SP.log_ndtr)
lgamma = _unary(SP.lgamma)
digamma = _unary(SP.digamma)
i0 = _unary(SP.i0)
i0e = _unary(SP.i0e)
i1 = _unary(SP.i1)
i1e = _unary(SP.i1e)
entr = _unary(SP.entr)


def logit(input: Any, eps: Any = None) -> Tensor:
    """log(x / (1 - x)); with `eps`, x is first clamped to [eps, 1 - eps] (and the gradient
    is 0 outside)."""
    x = floating(tensor_arg(input, "input"))
    if eps is not None and not _is_number(eps):
        raise GradcliError(f"logit(): argument 'eps' must be float, not {typename(eps)}").mirror(
            "TypeError"
        )
    return apply(SP.logit, x, eps=None if eps is None else float(eps))


def polygamma(n: Any, input: Any) -> Tensor:
    """The n-th derivative of digamma (n = 0: digamma itself)."""
    n = _int_arg("polygamma", "n", 1, n)
    x = floating(tensor_arg(input, "input"))
    if n < 0:
        raise GradcliError("polygamma(n, x) does not support negative n.")
    return apply(SP.polygamma, x, n=n)


def _polygamma_method(input: Any, n: Any) -> Tensor:
    return polygamma(n, input)


def mvlgamma(input: Any, p: Any) -> Tensor:
    """The multivariate log-gamma function of dimension p."""
    p = _int_arg("mvlgamma", "p", 2, p)
    x = floating(tensor_arg(input, "input"))
    if p < 1:
        raise GradcliError("p has to be greater than or equal to 1")
    A.size_check(x.shape + (p,), "the terms of mvlgamma (the input's elements times p)")
    return apply(SP.mvlgamma, x, p=p)


def _no_two_numbers(fn: str, input: Any, other: Any, self_number: bool = True) -> None:
    if isinstance(input, Tensor) or isinstance(other, Tensor):
        if isinstance(input, Tensor) or (self_number and _is_number(input)):
            return
    got = f"({typename(input)}, {typename(other)})"
    forms = " * (Tensor input, Tensor other, *, Tensor out = None)\n"
    if self_number:
        forms += " * (Number self, Tensor other, *, Tensor out = None)\n"
    forms += " * (Tensor input, Number other, *, Tensor out = None)\n"
    raise GradcliError(
        f"{fn}() received an invalid combination of arguments - got {got}, but expected one "
        f"of:\n{forms}"
    ).mirror("TypeError")


def _scalar_forms(op: Op, fn: str, node: str, self_number: bool = True) -> Any:
    """A function of two operands, one of which may be a number: PyTorch's node is named
    `<node>Backward1` for a number first, `Backward2` for a number second."""

    def f(input: Any, other: Any) -> Tensor:
        _no_two_numbers(fn, input, other, self_number)
        a, b = operands(input, other, floating=True)
        label = (
            f"{node}Backward1"
            if not isinstance(input, Tensor)
            else f"{node}Backward2"
            if not isinstance(other, Tensor)
            else None
        )
        return apply(op, a, b, label=label)

    f.__name__ = op.name
    return f


xlogy = _scalar_forms(SP.xlogy, "xlogy", "Xlogy")
xlog1py = _scalar_forms(SP.xlog1py, "special_xlog1py", "SpecialXlog1Py")
zeta = _scalar_forms(SP.zeta, "special_zeta", "SpecialZeta")


def _igamma_form(op: Op, fn: str) -> Any:
    """torch.igamma / igammac (special.gammainc / gammaincc): two tensors of a float dtype
    (their promoted dtype; integers refused as PyTorch's kernel)."""

    def f(input: Any, other: Any) -> Tensor:
        for pos, (name, v) in enumerate((("input", input), ("other", other)), 1):
            if not isinstance(v, Tensor):
                raise GradcliError(
                    f"{fn}(): argument '{name}' (position {pos}) must be Tensor, not {typename(v)}"
                ).mirror("TypeError")
        dt = np.result_type(input.dtype, other.dtype)
        if dt.kind != "f":
            raise GradcliError(f"\"{op.name}_cpu\" not implemented for '{scalar_type_name(dt)}'")
        a, b = operands(input, other, floating=True)
        return apply(op, a, b)

    f.__name__ = op.name
    return f


igamma = _igamma_form(SP.igamma, "igamma")
igammac = _igamma_form(SP.igammac, "igammac")
gammainc = _igamma_form(SP.igamma, "special_gammainc")
gammaincc = _igamma_form(SP.igammac, "special_gammaincc")


def copysign(input: Any, other: Any) -> Tensor:
    """|input| with the sign of other (a tensor or a number); computed in a float dtype."""
    _no_two_numbers("copysign", input, other, self_number=False)
    a, b = operands(input, other, floating=True)
    label = None if isinstance(other, Tensor) else "CopysignBackward1"
    return apply(SP.copysign, a, b, label=label)


def nextafter(input: Any, other: Any) -> Tensor:
    """The next float after input towards other, in their promoted float dtype (integers are
    refused as PyTorch's kernel does)."""
    for pos, (name, v) in enumerate((("input", input), ("other", other)), 1):
        if not isinstance(v, Tensor):
            raise GradcliError(
                f"nextafter(): argument '{name}' (position {pos}) must be Tensor, not {typename(v)}"
            ).mirror("TypeError")
    dt = np.result_type(input.dtype, other.dtype)
    if dt.kind != "f":
        raise GradcliError(f"\"nextafter_cpu\" not implemented for '{scalar_type_name(dt)}'")
    a, b = operands(input, other, floating=True)
    return apply(SP.nextafter, a, b)


def ldexp(input: Any, other: Any) -> Tensor:
    """input * 2 ** other (PyTorch's kernel: x * pow(2.0, e)); an integer result in the
    default float dtype. Its node is LdexpBackward0."""
    from ..ops.binary import ldexp as record

    _no_two_numbers("ldexp", input, other, self_number=False)
    a, b = operands(input, other, floating=True)
    return apply(record, a, b)


def frexp(input: Any) -> Any:
    """(mantissa, exponent) with input = mantissa * 2 ** exponent, |mantissa| in [0.5, 1)
    (0, inf and nan as they are, exponent 0): `torch.return_types.frexp`, the exponent int32,
    the mantissa's node FrexpBackward0."""
    from .linalg import ReturnTuple

    x = tensor_arg(input, "input")
    if x.dtype.kind != "f":
        raise GradcliError("torch.frexp() only supports floating-point dtypes").mirror(
            "RuntimeError"
        )
    _, exponent = np.frexp(x.data)
    m = apply(SP.frexp, x)
    return ReturnTuple(
        "frexp", ("mantissa", "exponent"), (m, Tensor(np.asarray(exponent, dtype=np.int32)))
    )


def _log_add(op: Op, fn: str) -> Any:
    def f(input: Any, other: Any) -> Tensor:
        for pos, (name, v) in enumerate((("input", input), ("other", other)), 1):
            if not isinstance(v, Tensor):
                raise GradcliError(
                    f"{fn}(): argument '{name}' (position {pos}) must be Tensor, not {typename(v)}"
                ).mirror("TypeError")
        a, b = operands(input, other)
        if a.dtype.kind != "f":
            raise GradcliError(
                f"\"{fn}_cpu\" not implemented for '{scalar_type_name(a.dtype)}'"
            ).mirror("NotImplementedError")
        return apply(op, a, b)

    f.__name__ = op.name
    return f


logaddexp = _log_add(SP.logaddexp, "logaddexp")
logaddexp2 = _log_add(SP.logaddexp2, "logaddexp2")


def float_power(input: Any, exponent: Any) -> Tensor:
    """input ** exponent computed in float64 (both cast first), as PyTorch's."""
    from . import functional as F

    if not isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        raise GradcliError(
            f"float_power() received an invalid combination of arguments - got "
            f"({typename(input)}, {typename(exponent)})"
        ).mirror("TypeError")
    base = F.to_dtype(input, np.float64) if isinstance(input, Tensor) else float(input)
    if isinstance(exponent, Tensor):
        return A.pow(base, F.to_dtype(exponent, np.float64))
    return A.pow(base, float(exponent))


def _float_power_(input: Any, exponent: Any) -> Tensor:
    from .functional import _method_

    x = tensor_arg(input, "input")
    if x.dtype != np.float64:
        raise GradcliError(
            f"the base given to float_power_ has dtype {scalar_type_name(x.dtype)} but the "
            "operation's result requires dtype Double"
        )
    return _method_(float_power)(x, exponent)


def _special_round(input: Any, *, decimals: int = 0) -> Tensor:
    # torch.special.round always passes decimals (RoundBackward1)
    return EW.round(input, decimals=decimals)


_SQRT1_2 = math.sqrt(0.5)  # M_SQRT1_2, correctly rounded (1 / sqrt(2) is an ulp below)


def ndtr(input: Any) -> Tensor:
    """The standard normal CDF, (1 + erf(x / sqrt 2)) / 2: PyTorch's composition (its nodes:
    MulBackward1, AddBackward1, ErfBackward0, MulBackward1)."""
    x = floating(tensor_arg(input, "input"))
    t = named(x * _SQRT1_2, "MulBackward1")
    s = named(A.erf(t) + 1, "AddBackward1")
    return named(s * 0.5, "MulBackward1")


def _forward_only(name: str) -> Any:
    """torch.special.<name>: a function PyTorch gives no derivative (its result never requires
    grad), computed as ATen's scalar kernel does (`core.bessel`) in float32 or float64 (an
    integer or bool tensor in the default dtype); other dtypes are PyTorch's error."""

    def f(input: Any) -> Tensor:
        from ..core import bessel

        if not isinstance(input, Tensor):
            raise GradcliError(
                f"special_{name}(): argument 'input' (position 1) must be Tensor, not "
                f"{typename(input)}"
            ).mirror("TypeError")
        data = input.data
        if data.dtype.kind in "iub":
            data = data.astype(Settings.default_dtype)
        elif data.dtype not in (np.float32, np.float64):
            raise GradcliError(
                f"\"{name}_cpu\" not implemented for '{scalar_type_name(data.dtype)}'"
            ).mirror("NotImplementedError")
        return Tensor(getattr(bessel, name)(data))

    f.__name__ = name
    return f


_FORWARD_ONLY = (
    "bessel_j0 bessel_j1 bessel_y0 bessel_y1 spherical_bessel_j0 modified_bessel_i0 "
    "modified_bessel_i1 modified_bessel_k0 modified_bessel_k1 scaled_modified_bessel_k0 "
    "scaled_modified_bessel_k1 airy_ai"
).split()


def _polynomial(name: str) -> Any:
    """torch.special.<name>(x, n): an orthogonal polynomial of degree n (a tensor or a number
    on either side, broadcast; computed in their promoted float dtype as ATen's scalar kernel
    does, `core.orthopoly`). PyTorch gives it no derivative: the result never requires grad."""

    def f(x: Any, n: Any) -> Tensor:
        from ..core import dtypes as D
        from ..core import orthopoly

        number = (bool, int, float)
        if (
            not isinstance(x, Tensor)
            and not isinstance(n, Tensor)
            or not all(isinstance(v, (Tensor, *number)) for v in (x, n))
        ):
            raise GradcliError(
                f"special_{name}() received an invalid combination of arguments - got "
                f"({typename(x)}, {typename(n)}), but expected one of:\n"
                " * (Tensor x, Tensor n, *, Tensor out = None)\n"
                " * (Number x, Tensor n, *, Tensor out = None)\n"
                " * (Tensor x, Number n, *, Tensor out = None)\n"
            ).mirror("TypeError")
        default = Settings.default_dtype
        dt = D.result_type(
            [
                (v.dtype, v.ndim) if isinstance(v, Tensor) else (D.scalar_dtype(v, default), None)
                for v in (x, n)
            ],
            default,
        )
        if dt.kind in "iub":
            dt = np.dtype(default)
        if dt not in (np.float32, np.float64):
            raise GradcliError(
                f"\"{name}_cpu\" not implemented for '{scalar_type_name(dt)}'"
            ).mirror("NotImplementedError")
        xs, ns = (np.asarray(v.data if isinstance(v, Tensor) else v).astype(dt) for v in (x, n))
        xs, ns = np.broadcast_arrays(xs, ns)
        xs, ns = np.asarray(xs, order="C"), np.asarray(ns, order="C")  # (0-d stays 0-d)
        return Tensor(orthopoly.compute(name, xs, ns))

    f.__name__ = name
    return f


_POLYNOMIALS = (
    "chebyshev_polynomial_t chebyshev_polynomial_u hermite_polynomial_h hermite_polynomial_he "
    "laguerre_polynomial_l legendre_polynomial_p chebyshev_polynomial_v chebyshev_polynomial_w "
    "shifted_chebyshev_polynomial_t shifted_chebyshev_polynomial_u "
    "shifted_chebyshev_polynomial_v shifted_chebyshev_polynomial_w"
).split()


NAMES = declare(
    ("logit", "torch Tensor Tensor_ special", logit, "logit"),
    ("erfinv", "torch Tensor Tensor_ special", erfinv, "erfinv"),
    ("erfc", "torch Tensor Tensor_ special", erfc, "erfc"),
    ("erfcx", "special", erfcx, "erfcx"),
    ("ndtr", "special", ndtr, "composition of erf mul add"),
    ("ndtri", "special", ndtri, "ndtri"),
    ("log_ndtr", "special", log_ndtr, "log_ndtr"),
    ("lgamma", "torch Tensor Tensor_", lgamma, "lgamma"),
    ("gammaln", "special", lgamma, "lgamma"),
    ("digamma", "torch Tensor Tensor_ special", digamma, "digamma"),
    ("psi", "special", digamma, "digamma"),
    ("polygamma", "torch special", polygamma, "polygamma"),
    ("polygamma", "Tensor Tensor_", _polygamma_method, "polygamma"),
    ("mvlgamma", "torch Tensor Tensor_", mvlgamma, "mvlgamma"),
    ("multigammaln", "special", mvlgamma, "mvlgamma"),
    ("i0", "torch Tensor Tensor_ special", i0, "i0"),
    ("i0e", "special", i0e, "i0e"),
    ("i1", "special", i1, "i1"),
    ("i1e", "special", i1e, "i1e"),
    ("entr", "special", entr, "entr"),
    ("xlogy", "torch Tensor Tensor_ special", xlogy, "xlogy"),
    ("xlog1py", "special", xlog1py, "xlog1py"),
    ("zeta", "special", zeta, "zeta"),
    ("igamma", "torch Tensor Tensor_", igamma, "igamma"),
    ("igammac", "torch Tensor Tensor_", igammac, "igammac"),
    ("gammainc", "special", gammainc, "igamma"),
    ("gammaincc", "special", gammaincc, "igammac"),
    ("logaddexp", "torch Tensor", logaddexp, "logaddexp"),
    ("logaddexp2", "torch Tensor", logaddexp2, "logaddexp2"),
    ("copysign", "torch Tensor Tensor_", copysign, "copysign"),
    ("ldexp", "torch Tensor Tensor_", ldexp, "ldexp"),
    ("nextafter", "torch Tensor Tensor_", nextafter, "nextafter"),
    ("frexp", "torch Tensor", frexp, "frexp"),
    (
        "float_power",
        "torch Tensor",
        float_power,
        "composition of astype pow pow_scalar rpow_scalar",
    ),
    ("float_power_", "Tensor", _float_power_, "composition of pow pow_scalar"),
    # torch.special's names for functions of torch (the others are declared with them)
    ("expit", "special", A.sigmoid, "sigmoid"),
    ("round", "special", _special_round, "round"),
    *((name, "special", _forward_only(name), "") for name in _FORWARD_ONLY),
    *((name, "special", _polynomial(name), "") for name in _POLYNOMIALS),
)
