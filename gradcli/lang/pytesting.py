"""`torch.testing`: `assert_close` (and the deprecated `assert_allclose`) as PyTorch 2.13's
compares (its pairs of tensors, numbers, booleans and None, found by walking lists, tuples and
dicts; its default tolerances by dtype; its checks of shape, dtype and stride; its messages
word for word, which programs catch with `except AssertionError as e: print(e)`), and
`make_tensor` (its draws: uniform_ on an empty tensor, randint for integers).

The values are compared on their NumPy data in the tensors' own dtype, as ATen computes the
differences (`isclose` is torch.isclose's; a float32 relative difference is a float32 division,
printed as the double `.item()` gives)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..base.errors import GradcliError, NotSupported
from ..core import dtypes as D
from ..core.tensor import Tensor
from ..surface.printing import Size

# PyTorch's default (rtol, atol) by dtype; other dtypes (integers, bool) compare exactly.
_PRECISIONS = {
    np.dtype(np.float16): (0.001, 1e-5),
    np.dtype(np.float32): (1.3e-6, 1e-5),
    np.dtype(np.float64): (1e-7, 1e-7),
    np.dtype(np.complex64): (1.3e-6, 1e-5),
    np.dtype(np.complex128): (1e-7, 1e-7),
}
# assert_allclose's older table
_ALLCLOSE_PRECISIONS = {
    np.dtype(np.float16): (1e-3, 1e-3),
    np.dtype(np.float32): (1e-4, 1e-5),
    np.dtype(np.float64): (1e-5, 1e-8),
}
# a Python number's type as the dtype it stands for
_NUMBER_DTYPES = {int: np.dtype(np.int64), float: np.dtype(np.float64)}


class _Failure(Exception):
    """PyTorch's ErrorMeta: the Python class of the error, its message and the item it is at."""

    def __init__(self, kind: str, msg: str, ident: tuple = ()):
        super().__init__(msg)
        self.kind, self.msg, self.ident = kind, msg, ident

    def error(self, msg: Any = None) -> GradcliError:
        if not isinstance(msg, str):
            text = self.msg
            if self.ident:
                path = "".join(_item_text(i) for i in self.ident)
                text += f"\n\nThe failure occurred for item {path}"
            if msg is not None:  # a callable: the program's function of the message
                from .values import current

                got = current().call(msg, [text], {}, None)
                if not isinstance(got, str):
                    from .text import to_str

                    got = to_str(got)
                text = got
        else:
            text = msg
        return GradcliError(text).mirror(self.kind).pytorch()


def _item_text(key: Any) -> str:
    """`str([key])`: an index as `[1]`, a key as `['x']`."""
    from .text import to_repr

    return f"[{to_repr(key)}]"


def _type_text(v: Any) -> str:
    from .builtins import type_of

    return repr(type_of(v))


def _unsupported(a: Any, b: Any, ident: tuple) -> _Failure:
    return _Failure(
        "TypeError",
        f"No comparison pair was able to handle inputs of type {_type_text(a)} and "
        f"{_type_text(b)}.",
        ident,
    )


def _tolerances(dtypes: list[np.dtype], rtol: Any, atol: Any, ident: tuple, table: dict) -> tuple:
    if (rtol is None) ^ (atol is None):
        raise _Failure(
            "ValueError",
            "Both 'rtol' and 'atol' must be either specified or omitted, but got no "
            f"{'rtol' if rtol is None else 'atol'}.",
            ident,
        )
    if rtol is not None:
        return rtol, atol
    pairs = [table.get(np.dtype(d), (0.0, 0.0)) for d in dtypes]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _mismatch(
    what: str, extra: str, rtol: Any, atol: Any, abs_diff: Any, rel_diff: Any, idx: Any = None
) -> str:
    """PyTorch's _make_mismatch_msg."""
    equality = rtol == 0 and atol == 0

    def line(kind: str, diff: Any, at: Any, tol: Any) -> str:
        if at is None:
            msg = f"{kind.title()} difference: {_num(diff)}"
        else:
            msg = f"Greatest {kind} difference: {_num(diff)} at index {at}"
        if not equality:
            msg += f" (up to {_num(tol)} allowed)"
        return msg + "\n"

    msg = f"{what} are not {'equal' if equality else 'close'}!\n\n"
    if extra:
        msg += f"{extra.strip()}\n"
    ai, ri = idx if idx is not None else (None, None)
    msg += line("absolute", abs_diff, ai, atol)
    msg += line("relative", rel_diff, ri, rtol)
    return msg.strip()


def _num(v: Any) -> str:
    """A Python number as Python's f-string shows it."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        from .text import to_str

        return to_str(v)
    return repr(v) if isinstance(v, float) else str(v)


def _scalar_message(actual: Any, expected: Any, rtol: Any, atol: Any) -> str:
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _mismatch(
        "Scalars",
        f"Expected {_num(expected)} but got {_num(actual)}.",
        rtol,
        atol,
        abs_diff,
        rel_diff,
    )


def _unravel(flat: int, shape: tuple) -> tuple:
    out = []
    for size in shape[::-1]:
        flat, mod = divmod(flat, size)
        out.append(mod)
    return tuple(out[::-1])


def _tensor_message(a: np.ndarray, e: np.ndarray, matches: np.ndarray, rtol: Any, atol: Any) -> str:
    n = matches.size
    bad = n - int(matches.sum())
    extra = f"Mismatched elements: {bad} / {n} ({bad / n:.1%})"
    af, ef, mf = a.reshape(-1), e.reshape(-1), matches.reshape(-1)
    with np.errstate(all="ignore"):
        if a.dtype.kind not in "fc":  # integers and booleans: their differences in int64
            af, ef = af.astype(np.int64), ef.astype(np.int64)
            abs_diff = np.abs(af - ef)
            abs_diff[mf] = 0
            # int64 / int64 is a true division in the default float dtype
            from ..core.tensor import Settings

            ft = np.dtype(Settings.default_dtype)
            rel = abs_diff.astype(ft) / np.abs(ef).astype(ft)
        else:
            abs_diff = np.abs(af - ef)
            abs_diff[mf] = 0
            rel = abs_diff / np.abs(ef)
        rel[mf] = 0
    ai, ri = int(np.argmax(abs_diff)), int(np.argmax(rel))
    return _mismatch(
        "Tensor-likes",
        extra,
        rtol,
        atol,
        abs_diff[ai].item(),
        rel[ri].item(),
        (_unravel(ai, a.shape), _unravel(ri, a.shape)),
    )


class _Options:
    __slots__ = (
        "allow_subclasses",
        "rtol",
        "atol",
        "equal_nan",
        "check_device",
        "check_dtype",
        "check_layout",
        "check_stride",
    )

    def __init__(self, **kw: Any):
        for k, v in kw.items():
            setattr(self, k, v)


def _none_pair(a: Any, e: Any, o: _Options, ident: tuple) -> Any:
    if a is not None and e is not None:
        return None

    def compare() -> None:
        if not (a is None and e is None):
            raise _Failure("AssertionError", f"None mismatch: {_num(a)} is not {_num(e)}", ident)

    return compare


def _bool_pair(a: Any, e: Any, o: _Options, ident: tuple) -> Any:
    kinds = (bool, np.bool_)
    if not (isinstance(a, kinds) and isinstance(e, kinds)):
        return None
    a, e = bool(a), bool(e)

    def compare() -> None:
        if a is not e:
            raise _Failure("AssertionError", f"Booleans mismatch: {a} is not {e}", ident)

    return compare


def _number_pair(a: Any, e: Any, o: _Options, ident: tuple) -> Any:
    kinds = (int, float, np.number)
    if not (isinstance(a, kinds) and isinstance(e, kinds)):
        return None
    a = a.item() if isinstance(a, np.generic) else a
    e = e.item() if isinstance(e, np.generic) else e
    if (
        isinstance(a, bool)
        or isinstance(e, bool)
        or isinstance(a, complex)
        or isinstance(e, complex)
    ):
        raise NotSupported(
            "assert_close() of a bool and a number (or a complex number) is not supported",
            hint="compare two numbers, or two bools",
        )
    rtol, atol = _tolerances(
        [_NUMBER_DTYPES[type(v)] for v in (a, e)], o.rtol, o.atol, ident, _PRECISIONS
    )

    def compare() -> None:
        if o.check_dtype and type(a) is not type(e):
            raise _Failure(
                "AssertionError",
                f"The (d)types do not match: {_type_text(a)} != {_type_text(e)}.",
                ident,
            )
        if a == e:
            return
        if o.equal_nan and math.isnan(a) and math.isnan(e):
            return
        abs_diff = abs(a - e)
        if math.isfinite(abs_diff) and abs_diff <= atol + rtol * abs(e):
            return
        raise _Failure("AssertionError", _scalar_message(a, e, rtol, atol), ident)

    return compare


def _as_tensor(v: Any) -> Tensor:
    if isinstance(v, Tensor):
        return v
    from ..surface.constructors import as_tensor

    return as_tensor(v)


def _tensor_pair(a: Any, e: Any, o: _Options, ident: tuple) -> Any:
    if isinstance(a, Tensor) and isinstance(e, Tensor):
        if not o.allow_subclasses and _type_text(a) != _type_text(e):
            return None
    elif not (isinstance(a, np.ndarray) and isinstance(e, np.ndarray)):
        return None
    a, e = _as_tensor(a), _as_tensor(e)
    rtol, atol = _tolerances([a.dtype, e.dtype], o.rtol, o.atol, ident, _PRECISIONS)

    def fail(attr: str, x: Any, y: Any) -> None:
        raise _Failure(
            "AssertionError", f"The values for attribute '{attr}' do not match: {x} != {y}.", ident
        )

    def compare() -> None:
        if tuple(a.shape) != tuple(e.shape):
            fail("shape", Size(a.shape), Size(e.shape))
        if o.check_stride:
            from ..surface.predicates import stride

            sa, se = stride(a), stride(e)
            if sa != se:
                fail("stride()", sa, se)
        if o.check_dtype and a.dtype != e.dtype:
            fail("dtype", D.torch_name(a.dtype), D.torch_name(e.dtype))
        x, y = a.data, e.data
        if a.dtype != e.dtype:
            dt = D.promote_types(a.dtype, e.dtype)
            x, y = x.astype(dt), y.astype(dt)
        from ..surface.predicates import isclose

        matches = isclose(Tensor(x), Tensor(y), rtol=rtol, atol=atol, equal_nan=o.equal_nan).data
        if matches.all():
            return
        if x.ndim == 0:
            msg = _scalar_message(x.item(), y.item(), rtol, atol)
        else:
            msg = _tensor_message(x, y, matches, rtol, atol)
        raise _Failure("AssertionError", msg, ident)

    return compare


_PAIRS = (_none_pair, _bool_pair, _number_pair, _tensor_pair)


def _is_sequence(v: Any) -> bool:
    return isinstance(v, (list, tuple, range))


def _is_mapping(v: Any) -> bool:
    return isinstance(v, dict)


def _originate(a: Any, e: Any, o: _Options, ident: tuple, out: list) -> None:
    if _is_sequence(a) and _is_sequence(e):
        if len(a) != len(e):
            raise _Failure(
                "AssertionError",
                f"The length of the sequences mismatch: {len(a)} != {len(e)}",
                ident,
            )
        for i in range(len(a)):
            _originate(a[i], e[i], o, (*ident, i), out)
        return
    if _is_mapping(a) and _is_mapping(e):
        ka, ke = set(a.keys()), set(e.keys())
        if ka != ke:
            from .text import to_repr

            raise _Failure(
                "AssertionError",
                "The keys of the mappings do not match:\n"
                f"Missing keys in the actual mapping: {to_repr(_sorted(ke - ka))}\n"
                f"Additional keys in the actual mapping: {to_repr(_sorted(ka - ke))}",
                ident,
            )
        keys: Any = list(ka)
        try:
            keys = sorted(ka)
        except TypeError:
            pass
        for k in keys:
            _originate(a[k], e[k], o, (*ident, k), out)
        return
    for pair in _PAIRS:
        got = pair(a, e, o, ident)
        if got is not None:
            out.append(got)
            return
    raise _unsupported(a, e, ident)


def _sorted(keys: set) -> list:
    try:
        return sorted(keys)
    except TypeError:
        raise NotSupported(
            "assert_close() of dicts whose keys cannot be sorted is not supported",
            hint="give the dicts keys of one kind (all strings, or all numbers)",
        ) from None


def assert_close(
    actual: Any,
    expected: Any,
    *,
    allow_subclasses: bool = True,
    rtol: Any = None,
    atol: Any = None,
    equal_nan: bool = False,
    check_device: bool = True,
    check_dtype: bool = True,
    check_layout: bool = True,
    check_stride: bool = False,
    msg: Any = None,
) -> None:
    """`torch.testing.assert_close`: None when they are close, PyTorch's error otherwise."""
    from .values import check_structure

    check_structure(actual, "assert_close()")
    check_structure(expected, "assert_close()")
    for name, v in (("rtol", rtol), ("atol", atol)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
            raise NotSupported(
                f"assert_close() with a {name} that is not a number is not supported",
                hint=f"give {name} as a float, e.g. {name}=1e-5",
            )
    o = _Options(
        allow_subclasses=allow_subclasses,
        rtol=rtol,
        atol=atol,
        equal_nan=equal_nan,
        check_device=check_device,
        check_dtype=check_dtype,
        check_layout=check_layout,
        check_stride=check_stride,
    )
    pairs: list = []
    try:
        _originate(actual, expected, o, (), pairs)
    except _Failure as f:
        raise f.error() from None
    failures = []
    for compare in pairs:
        try:
            compare()
        except _Failure as f:
            failures.append(f)
    if failures:
        raise failures[0].error(msg)


_ALLCLOSE_WARNING = (
    "`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a future "
    "release. Please use `torch.testing.assert_close()` instead. You can find detailed upgrade "
    "instructions in https://github.com/pytorch/pytorch/issues/61844."
)


def assert_allclose(
    actual: Any,
    expected: Any,
    rtol: Any = None,
    atol: Any = None,
    equal_nan: bool = True,
    msg: Any = "",
) -> None:
    """`torch.testing.assert_allclose` (deprecated, with PyTorch's FutureWarning): the numbers
    made tensors (`expected` in `actual`'s dtype), its older default tolerances, dtypes not
    checked, NaNs equal."""
    from ..surface.constructors import tensor
    from .values import current

    current().python_warning(_ALLCLOSE_WARNING, "FutureWarning")
    if not isinstance(actual, Tensor):
        actual = tensor(actual)
    if not isinstance(expected, Tensor):
        expected = tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        pairs = [_ALLCLOSE_PRECISIONS.get(d, (0.0, 0.0)) for d in (actual.dtype, expected.dtype)]
        rtol, atol = max(p[0] for p in pairs), max(p[1] for p in pairs)
    assert_close(
        actual,
        expected,
        rtol=rtol,
        atol=atol,
        equal_nan=equal_nan,
        check_device=True,
        check_dtype=False,
        check_stride=False,
        msg=msg or None,
    )


_INT_KINDS = "iub"


def make_tensor(
    *shape: Any,
    dtype: Any,
    device: Any,
    low: Any = None,
    high: Any = None,
    requires_grad: bool = False,
    noncontiguous: bool = False,
    exclude_zero: bool = False,
    memory_format: Any = None,
) -> Tensor:
    """`torch.testing.make_tensor(*shape, dtype=, device=, low=, high=, requires_grad=,
    exclude_zero=)`: PyTorch's draws from the global generator (floats: uniform_ on an empty
    tensor in [-9, 9) by default; integers: randint in [-9, 10); bools: randint(0, 2))."""
    from ..surface import constructors as K
    from ..surface import sampling

    if noncontiguous or memory_format is not None:
        raise NotSupported(
            "make_tensor(noncontiguous=..., memory_format=...) is not supported",
            hint="make the tensor and take a view of it yourself (t[..., ::2])",
        )
    if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
        shape = tuple(shape[0])
    if not isinstance(dtype, np.dtype):  # (a torch dtype arrives as its NumPy dtype)
        from .text import to_str

        raise (
            GradcliError(
                f"The requested dtype '{to_str(dtype)}' is not supported by "
                "torch.testing.make_tensor(). To request support, file an issue at: "
                "https://github.com/pytorch/pytorch/issues"
            )
            .mirror("TypeError")
            .pytorch()
        )
    dt = dtype
    if requires_grad and dt.kind in _INT_KINDS:
        raise (
            GradcliError(
                "`requires_grad=True` is not supported for boolean and integral dtypes, but got "
                f"dtype={D.torch_name(dt)}"
            )
            .mirror("ValueError")
            .pytorch()
        )
    if dt.kind == "b":
        lo, hi = _low_high(low, high, dt, 0, 2, 0, 2)
        result = sampling.randint(lo, hi, tuple(shape), dtype=dt)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        top = int(info.max) + (1 if dt != np.int64 else 0)
        lo, hi = _low_high(low, high, dt, int(info.min), top, -9, 10)
        result = sampling.randint(lo, hi, tuple(shape), dtype=dt)
    elif dt.kind == "f":
        info = np.finfo(dt)
        lo, hi = _low_high(low, high, dt, float(info.min), float(info.max), -9, 9)
        result = K.empty(tuple(shape), dtype=dt)
        if hi - lo >= float(info.max):
            sampling.uniform_(result, lo / 2, hi / 2)
            result.data *= 2
        else:
            sampling.uniform_(result, lo, hi)
    else:
        raise NotSupported(f"make_tensor() of {D.torch_name(dt)} is not supported")
    if exclude_zero:
        zero = result.data == 0
        result.data[zero] = 1 if dt.kind in _INT_KINDS else np.finfo(dt).tiny
    if dt.kind == "f" and requires_grad:
        result.requires_grad_(True)
    return result


def _low_high(
    low: Any, high: Any, dt: np.dtype, lowest: Any, highest: Any, dlow: Any, dhigh: Any
) -> tuple:
    """PyTorch's checks and clamping of make_tensor's interval."""
    low = dlow if low is None else low
    high = dhigh if high is None else high
    for v in (low, high):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise NotSupported("make_tensor()'s low and high must be numbers")
    if any(isinstance(v, float) and math.isnan(v) for v in (low, high)):
        raise (
            GradcliError(f"`low` and `high` cannot be NaN, but got low={low!r} and high={high!r}")
            .mirror("ValueError")
            .pytorch()
        )
    if low == high and dt.kind == "f":
        from .values import current

        current().python_warning(
            "Passing `low==high` to `torch.testing.make_tensor` for floating or complex types "
            "is deprecated since 2.1 and will be removed in 2.3. Use `torch.full(...)` instead.",
            "FutureWarning",
        )
    elif low >= high:
        raise GradcliError(f"`low` must be less than `high`, but got {low} >= {high}").mirror(
            "ValueError"
        )
    elif high < lowest or low >= highest:
        raise (
            GradcliError(
                f"The value interval specified by `low` and `high` is [{low}, {high}), but "
                f"{D.torch_name(dt)} only supports [{lowest}, {highest})"
            )
            .mirror("ValueError")
            .pytorch()
        )
    low = min(max(low, lowest), highest)
    high = min(max(high, lowest), highest)
    if dt.kind in _INT_KINDS:
        return math.ceil(low), math.ceil(high)
    return low, high


def members() -> dict[str, Any]:
    from .values import Builtin

    return {
        "assert_close": Builtin("torch.testing.assert_close", assert_close),
        "assert_allclose": Builtin("torch.testing.assert_allclose", assert_allclose),
        "make_tensor": Builtin("torch.testing.make_tensor", make_tensor, raw=False),
    }
