"""`torch.nn.init` as programs call it: `nn.init.xavier_uniform_(lin.weight)` fills the tensor in
place with PyTorch's numbers and returns it.

Each function draws from the generator module (`random`: PyTorch's CPU generator and samplers,
bit for bit; see its docstring for `orthogonal_` and narrow `trunc_normal_`, the two that are
not) and writes the tensor as PyTorch's `nn.init` does, under no_grad: a parameter stays a leaf
that requires grad, its version counter goes up. The bounds are computed in Python floats from
the fans, as PyTorch's Python code computes them.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError
from ..core import hooks
from ..core.tensor import Tensor, no_grad, typename
from . import sampling as S
from .sampling import R


def _target(tensor: Any, fn: str) -> Tensor:
    if not isinstance(tensor, Tensor):
        raise GradcliError(
            f"{fn}(): argument 'tensor' must be Tensor, not {typename(tensor)}",
            hint=f"pass the tensor to fill: nn.init.{fn}(layer.weight)",
        )
    return tensor


def _kernel_float(v: Any, name: str, position: int, fn: str) -> Any:
    """An argument nn.init hands to the tensor's own `uniform_` / `normal_` (parsed as a C++
    double): a zero-dimensional tensor that needs no gradient is the number it holds
    (`std=1.0 / torch.sqrt(torch.tensor(fan_in))`); any other tensor is the parser's
    TypeError."""
    if isinstance(v, Tensor):
        if v.ndim == 0 and not v.requires_grad and v.data.dtype.kind in "biuf":
            return float(v.data.item())
        raise GradcliError(
            f"{fn}(): argument '{name}' (position {position}) must be float, not Tensor"
        ).mirror("TypeError")
    return v


def _float(v: Any, what: str, fn: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise GradcliError(
            f"{fn}(): {what} must be a number, not {typename(v)}", hint=f"e.g. {what}=1.0"
        )
    return float(v)


def _filled(x: Tensor, values: np.ndarray) -> Tensor:
    with no_grad():
        return S._fill(x, values)


def _fans(x: Tensor) -> tuple[int, int]:
    try:
        return R._fans(tuple(x.shape))
    except ValueError as e:
        raise GradcliError(str(e), hint="initialise a weight matrix (2 or more dimensions)").mirror(
            "ValueError"
        ) from None


def _calculate_fan_in_and_fan_out(tensor: Any) -> tuple[int, int]:
    """PyTorch's private helper that `reset_parameters` methods copied from nn.Linear call:
    (fan_in, fan_out) of a weight, the receptive field counted in, as two ints."""
    if not isinstance(tensor, Tensor):
        raise GradcliError(f"'{typename(tensor)}' object has no attribute 'dim'").mirror(
            "AttributeError"
        )
    return _fans(tensor)


def _calculate_correct_fan(tensor: Any, mode: Any) -> int:
    """The fan of `mode` ('fan_in' or 'fan_out', any case), as PyTorch's private helper."""
    if not isinstance(mode, str):
        raise GradcliError(f"'{typename(mode)}' object has no attribute 'lower'").mirror(
            "AttributeError"
        )
    m = mode.lower()
    if m not in ("fan_in", "fan_out"):
        raise (
            GradcliError(
                f"Mode {m} not supported, please use one of ['fan_in', 'fan_out']",
                hint="mode='fan_in' or mode='fan_out'",
            )
            .mirror("ValueError")
            .pytorch()
        )
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if m == "fan_in" else fan_out


def calculate_gain(nonlinearity: Any, param: Any = None) -> float:
    """PyTorch's gain (an int 1 for the linear functions and sigmoid, as PyTorch returns)."""
    try:
        return R.calculate_gain(nonlinearity, param)
    except ValueError as e:
        raise GradcliError(
            str(e),
            hint="one of linear, conv1d, conv2d, conv3d, sigmoid, tanh, relu, leaky_relu, selu",
        ).mirror("ValueError") from None


def uniform_(tensor: Any, a: Any = 0.0, b: Any = 1.0, generator: Any = None) -> Tensor:
    x = _target(tensor, "uniform_")
    with no_grad():
        a = _kernel_float(a, "from", 1, "uniform_")
        b = _kernel_float(b, "to", 2, "uniform_")
        return S.uniform_(
            x, _float(a, "a", "uniform_"), _float(b, "b", "uniform_"), generator=generator
        )


def normal_(tensor: Any, mean: Any = 0.0, std: Any = 1.0, generator: Any = None) -> Tensor:
    x = _target(tensor, "normal_")
    with no_grad():
        mean = _kernel_float(mean, "mean", 1, "normal_")
        std = _kernel_float(std, "std", 2, "normal_")
        return S.normal_(
            x, _float(mean, "mean", "normal_"), _float(std, "std", "normal_"), generator=generator
        )


def trunc_normal_(
    tensor: Any,
    mean: Any = 0.0,
    std: Any = 1.0,
    a: Any = -2.0,
    b: Any = 2.0,
    generator: Any = None,
) -> Tensor:
    x = _target(tensor, "trunc_normal_")
    fn = "trunc_normal_"
    mean, std = _float(mean, "mean", fn), _float(std, "std", fn)
    a, b = _float(a, "a", fn), _float(b, "b", fn)
    if mean < a - 2 * std or mean > b + 2 * std:
        hooks.warn(
            "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of "
            "values may be incorrect."
        )
    _acceptance_checked(mean, std, a, b)
    _serial_checked(x)
    values = S._call(
        R.trunc_normal_,
        x.shape,
        mean,
        std,
        a,
        b,
        dtype=x.dtype,
        generator=S._gen(generator),
        strides=S._strides(x),
    )
    return _filled(x, values)


def _serial_checked(x: Tensor) -> None:
    """A view that is not contiguous takes normal_'s one-value-at-a-time path, as in PyTorch:
    refused before anything is drawn when that would outlast the time limit."""
    if x.data.size >= 16 and not R.is_contiguous(x.shape, S._strides(x)):
        S._serial_check("normal_", x.data.size)


MAX_DRAWS_PER_VALUE = 10_000


def _acceptance_checked(mean: float, std: float, a: float, b: float) -> None:
    """PyTorch's sampler for an interval holding little of the normal's mass draws uniform
    candidates on [a, b] until each is accepted against the density: refuse an interval that
    would take more than MAX_DRAWS_PER_VALUE draws a value (a loop gradcli could not stop)."""
    if not (math.isfinite(mean) and math.isfinite(std) and std > 0):
        raise GradcliError(
            "trunc_normal_(): mean and std must be finite numbers, std above 0",
            found=f"mean={mean}, std={std}",
        )
    mass = (
        math.erf((b - mean) / (std * math.sqrt(2.0)))
        - math.erf((a - mean) / (std * math.sqrt(2.0)))
    ) / 2
    if mass > 0.3:
        return  # whole-tensor redraws: each keeps over 30% of what is left
    if not (math.isfinite(a) and math.isfinite(b)) or not a < b:
        raise GradcliError(
            "trunc_normal_(): the interval [a, b] must be finite and not empty when it holds "
            "little of the distribution",
            found=f"a={a}, b={b}",
        )
    mode = max(a, min(mean, b))
    peak = math.exp(-0.5 * ((mode - mean) / std) ** 2) / (std * math.sqrt(2 * math.pi))
    draws = (b - a) * peak / mass if mass > 0 else math.inf
    if not draws <= MAX_DRAWS_PER_VALUE:
        raise GradcliError(
            f"trunc_normal_(): [{a}, {b}] is too far in the tail of normal(mean={mean}, "
            f"std={std}): PyTorch's rejection sampler would draw about {draws:.3g} candidates "
            "for each value",
            expected=f"at most {MAX_DRAWS_PER_VALUE:,} draws a value",
            hint="move mean or a, b so that the interval holds more of the distribution",
        )


def constant_(tensor: Any, val: Any) -> Tensor:
    x = _target(tensor, "constant_")
    if isinstance(val, Tensor):
        if val.data.size != 1:
            raise GradcliError(
                "fill_ only supports 0-dimension value tensor but got tensor with "
                f"{val.ndim} dimensions."
            )
        val = val.data.reshape(()).item()
    if not isinstance(val, (int, float, bool)):
        raise GradcliError(f"constant_(): val must be a number, not {typename(val)}")
    return _filled(x, np.full(x.shape, val).astype(x.dtype))


def ones_(tensor: Any) -> Tensor:
    return constant_(_target(tensor, "ones_"), 1)


def zeros_(tensor: Any) -> Tensor:
    return constant_(_target(tensor, "zeros_"), 0)


def eye_(tensor: Any) -> Tensor:
    x = _target(tensor, "eye_")
    if x.ndim != 2:
        raise GradcliError("Only tensors with 2 dimensions are supported").mirror("ValueError")
    return _filled(x, np.eye(*x.shape, dtype=x.dtype))


def xavier_uniform_(tensor: Any, gain: Any = 1.0, generator: Any = None) -> Tensor:
    x = _target(tensor, "xavier_uniform_")
    fan_in, fan_out = _fans(x)
    std = _float(gain, "gain", "xavier_uniform_") * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    with no_grad():
        return S.uniform_(x, -a, a, generator=generator)


def xavier_normal_(tensor: Any, gain: Any = 1.0, generator: Any = None) -> Tensor:
    x = _target(tensor, "xavier_normal_")
    fan_in, fan_out = _fans(x)
    std = _float(gain, "gain", "xavier_normal_") * math.sqrt(2.0 / float(fan_in + fan_out))
    with no_grad():
        return S.normal_(x, 0.0, std, generator=generator)


def _kaiming_std(x: Tensor, a: Any, mode: Any, nonlinearity: Any) -> float:
    fan = _calculate_correct_fan(x, mode)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def _zero_elements(x: Tensor) -> bool:
    if 0 in x.shape:
        hooks.warn("Initializing zero-element tensors is a no-op")
        return True
    return False


def kaiming_uniform_(
    tensor: Any,
    a: Any = 0,
    mode: Any = "fan_in",
    nonlinearity: Any = "leaky_relu",
    generator: Any = None,
) -> Tensor:
    x = _target(tensor, "kaiming_uniform_")
    if _zero_elements(x):
        return x
    bound = math.sqrt(3.0) * _kaiming_std(x, a, mode, nonlinearity)
    with no_grad():
        return S.uniform_(x, -bound, bound, generator=generator)


def kaiming_normal_(
    tensor: Any,
    a: Any = 0,
    mode: Any = "fan_in",
    nonlinearity: Any = "leaky_relu",
    generator: Any = None,
) -> Tensor:
    x = _target(tensor, "kaiming_normal_")
    if _zero_elements(x):
        return x
    std = _kaiming_std(x, a, mode, nonlinearity)
    with no_grad():
        return S.normal_(x, 0.0, std, generator=generator)


QR_WORK_PER_SECOND = 1e8  # a QR's multiply-adds a second gradcli counts on (NumPy: ~1e9)


def orthogonal_(tensor: Any, gain: Any = 1, generator: Any = None) -> Tensor:
    x = _target(tensor, "orthogonal_")
    if x.ndim < 2:
        raise GradcliError("Only tensors with 2 or more dimensions are supported").mirror(
            "ValueError"
        )
    rows = x.shape[0]
    cols = x.data.size // rows if rows else 0
    work = rows * cols * min(rows, cols)  # a QR decomposition's multiply-adds, about
    allowed = QR_WORK_PER_SECOND * limits.TIME_SECONDS.value
    if work > allowed:
        raise GradcliError(
            f"orthogonal_() of a {rows} x {cols} matrix: its QR decomposition takes about "
            f"{work:.3g} multiply-adds, more than the time limit allows ({allowed:.3g})",
            expected=f"rows * cols * min(rows, cols) at most {allowed:.3g} "
            f"({QR_WORK_PER_SECOND:.0e} a second of {limits.TIME_SECONDS.name})",
            hint=f"initialise a smaller matrix, or raise {limits.TIME_SECONDS.env}",
        )
    values = S._call(
        R.orthogonal_,
        x.shape,
        _float(gain, "gain", "orthogonal_"),
        dtype=x.dtype,
        generator=S._gen(generator),
        note=_orthogonal_note,
    )
    return _filled(x, values)


def _orthogonal_note(rows: int, cols: int, dtype: str) -> None:
    """Said once on stderr where orthogonal_'s Q is not PyTorch's order (`random.orthogonal_`)."""
    hooks.warn(
        f"nn.init.orthogonal_ of a {rows} x {cols} {dtype} tensor: the normal draw is "
        "PyTorch's, but its QR decomposition is NumPy's LAPACK in float64 rounded once, not "
        "PyTorch's MKL (whose order gradcli mirrors only for float32 matrices of up to 32 "
        "columns, or rows, on the avx2 / zen4 kernel families): the last digits of the result "
        "can differ from PyTorch's",
        "to compare digits, print fewer of them or initialise with a seeded torch.randn / "
        "nn.init.normal_ instead",
        once="orthogonal_",
    )


SPARSE_WORK = 10**6  # rows * columns sparse_'s permutations may take (a Python loop each)


def sparse_(tensor: Any, sparsity: Any, std: Any = 0.01, generator: Any = None) -> Tensor:
    """nn.init.sparse_: normal_(0, std), then ceil(sparsity * rows) rows of each column zeroed,
    chosen by a randperm(rows) a column drawn from the default generator (as PyTorch does,
    whatever `generator` is)."""
    x = _target(tensor, "sparse_")
    if x.ndim != 2:
        raise GradcliError("Only tensors with 2 dimensions are supported").mirror("ValueError")
    sparsity = _float(sparsity, "sparsity", "sparse_")
    if not math.isfinite(sparsity):
        raise GradcliError(f"sparse_(): sparsity must be finite, not {sparsity}")
    rows, cols = x.shape
    if rows * cols > SPARSE_WORK:
        raise GradcliError(
            f"sparse_() of a {rows} x {cols} matrix: {cols} permutations of {rows} rows, more "
            "than gradcli draws one by one",
            expected=f"rows * columns at most {SPARSE_WORK:,}",
            hint="initialise a smaller matrix",
        )
    _serial_checked(x)
    values = S._call(
        R.sparse_,
        x.shape,
        sparsity,
        _float(std, "std", "sparse_"),
        dtype=x.dtype,
        generator=S._gen(generator),
        strides=S._strides(x),
    )
    return _filled(x, values)


def dirac_(tensor: Any, groups: Any = 1) -> Tensor:
    """nn.init.dirac_: zeros, with a 1 at the centre of kernel (d, d) of each group (3-D to 5-D
    convolution weights): convolving with it is the identity."""
    x = _target(tensor, "dirac_")
    if x.ndim not in (3, 4, 5):
        raise GradcliError("Only tensors with 3, 4, or 5 dimensions are supported").mirror(
            "ValueError"
        )
    if isinstance(groups, bool) or not isinstance(groups, int) or groups <= 0:
        raise GradcliError(f"dirac_(): groups must be a positive int, not {groups!r}")
    if x.shape[0] % groups != 0:
        raise GradcliError("dim 0 must be divisible by groups").mirror("ValueError")
    out_per_group = x.shape[0] // groups
    values = np.zeros(x.shape, x.dtype)
    centre = tuple(n // 2 for n in x.shape[2:])
    for g in range(groups):
        for d in range(min(out_per_group, x.shape[1])):
            values[(g * out_per_group + d, d, *centre)] = 1
    return _filled(x, values)


# torch.nn.init.X as a program names them.
FUNCTIONS: dict[str, Any] = {
    f.__name__: f
    for f in (
        _calculate_fan_in_and_fan_out,
        _calculate_correct_fan,
        calculate_gain,
        uniform_,
        normal_,
        trunc_normal_,
        constant_,
        ones_,
        zeros_,
        eye_,
        xavier_uniform_,
        xavier_normal_,
        kaiming_uniform_,
        kaiming_normal_,
        orthogonal_,
        sparse_,
        dirac_,
    )
}
