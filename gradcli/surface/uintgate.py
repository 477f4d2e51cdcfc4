"""The unsigned dtypes wider than a byte (torch.uint16, uint32, uint64): PyTorch 2.13 has them
as "shell" dtypes, with an irregular subset of its kernels. This is the one table of what a
tensor of one of them may go through, consulted where calls and operators dispatch
(`lang.calls`, `lang.operators`): a name PyTorch runs is computed as for any integer tensor;
a name whose kernel PyTorch lacks raises PyTorch's own error (`"lt_cpu" not implemented for
'UInt32'`); anything else is refused as not supported (never computed in silence).

Read off PyTorch 2.13 on CPU, one probe per name."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import GradcliError, NotSupported
from ..core.dtypes import WIDE_UNSIGNED, scalar_type_name
from ..core.tensor import Tensor

# The names PyTorch runs on them (their results: as NumPy's for the same integer dtype).
ALLOWED = frozenset(
    """
    tensor as_tensor zeros ones full empty zeros_like ones_like full_like empty_like new_tensor
    new_zeros new_ones new_full new_empty randint randint_like from_numpy
    to type float double half bfloat16 long int short char byte bool cpu numpy tolist item
    clone detach contiguous view view_as reshape reshape_as flatten squeeze unsqueeze t
    transpose permute expand expand_as narrow split chunk unbind cat concat concatenate stack
    repeat roll diag outer __getitem__ __setitem__ select movedim moveaxis swapaxes swapdims
    mul multiply mul_ multiply_ div divide true_divide eq ne eq_ ne_ equal sum prod cumsum
    cumprod bitwise_and bitwise_or bitwise_xor __and__ __or__ __xor__ __rand__ __ror__ __rxor__
    sort argsort msort unique fill_ zero_ copy_ where nan_to_num isnan isfinite isinf round
    floor ceil trunc fix sqrt exp log log2 log10 sin cos tan tanh sigmoid rsqrt
    size dim ndimension numel nelement element_size is_signed is_floating_point is_complex
    is_tensor is_contiguous stride storage_offset data_ptr any all result_type can_cast
    __len__ __repr__ __str__ __format__ __bool__ __int__ __index__ __float__ __mul__ __rmul__
    __truediv__ __rtruediv__ __eq__ __ne__ __pos__ requires_grad_ is_leaf div_ divide_ true_divide_
    """.split()
)

# The names whose kernel PyTorch lacks for them: its error names the kernel.
KERNELS = {
    **dict.fromkeys(
        "add sub subtract add_ sub_ subtract_ __add__ __radd__ __sub__ __rsub__ diff rsub".split(),
        "add_stub",
    ),
    **dict.fromkeys(
        "floor_divide __floordiv__ __rfloordiv__ floor_divide_".split(), "div_floor_cpu"
    ),
    **dict.fromkeys("remainder __mod__ __rmod__ remainder_".split(), "remainder_cpu"),
    **dict.fromkeys("lt less __lt__ lt_".split(), "lt_cpu"),
    **dict.fromkeys("le less_equal __le__ le_".split(), "le_cpu"),
    **dict.fromkeys("gt greater __gt__ gt_".split(), "gt_cpu"),
    **dict.fromkeys("ge greater_equal __ge__ ge_".split(), "ge_cpu"),
    **dict.fromkeys("bitwise_not bitwise_not_ __invert__".split(), "bitwise_not_cpu"),
    **dict.fromkeys("bitwise_left_shift __lshift__ __rlshift__".split(), "lshift_cpu"),
    **dict.fromkeys("bitwise_right_shift __rshift__ __rrshift__".split(), "rshift_cpu"),
    **dict.fromkeys("abs absolute abs_".split(), "abs_cpu"),
    **dict.fromkeys("neg negative neg_ __neg__".split(), "neg_cpu"),
    **dict.fromkeys("pow pow_ square __pow__ __rpow__ float_power".split(), "pow"),
    **dict.fromkeys("clamp clip clamp_ clip_ clamp_min clamp_max".split(), "clamp_scalar_cpu"),
    **dict.fromkeys("sign sgn sign_".split(), "sign_cpu"),
    **dict.fromkeys("matmul dot __matmul__ mv".split(), "dot"),
    **dict.fromkeys("mm addmm".split(), "addmm_impl_cpu_"),
    **dict.fromkeys("nonzero count_nonzero argwhere".split(), "nonzero_count_cpu"),
    **dict.fromkeys("gather scatter scatter_ scatter_add".split(), "scatter_gather_tensor_cpu"),
    "argmax": "argmax_cpu",
    "argmin": "argmin_cpu",
    "maximum": "maximum_cpu",
    "minimum": "minimum_cpu",
    "amax": "max_values_cpu",
    "amin": "min_values_cpu",
    "topk": "topk_cpu",
    "isin": "isin_default_cpu",
    "flip": "flip_cpu",
    "bincount": "bincount_cpu",
    "arange": "arange_cpu",
    "median": "median_cpu",
    "kthvalue": "kthvalue_cpu",
    "cummax": "cummax_cpu",
    "aminmax": "aminmax_cpu",
    "logical_and": "logical_and_cpu",
    "logical_or": "logical_or_cpu",
    "logical_not": "logical_not_cpu",
    "masked_fill": "masked_fill",
    "masked_fill_": "masked_fill",
    "index_put": "index_put",
    "index_put_": "index_put",
    "index_select": "index_select",
    "tril": "tril",
    "triu": "triu",
    "einsum": "bmm",
    "bmm": "bmm",
    "fmod": "fmod_cpu",
    "hash_tensor": "xor_sum_cpu",
    "rand": "check_uniform_bounds",
    "sum_dtype": "sum_cpu",
    "uniform_": "check_uniform_bounds",
}


def wide(v: Any) -> bool:
    return isinstance(v, Tensor) and v.data.dtype in WIDE_UNSIGNED


def check(key: str, operands: Any) -> None:
    """Refuse `key` (a function's or method's name, or an operator's dunder) on a tensor of a
    wide unsigned dtype among `operands`, unless PyTorch runs it."""
    found = None
    for v in operands:
        if wide(v):
            found = v
            break
        if isinstance(v, (list, tuple)):
            found = next((t for t in v[:64] if wide(t)), None)
            if found is not None:
                break
    if found is None:
        return
    given = [_dtype_of(v) for v in operands if _dtype_of(v) is not None]  # (a `dtype=`)
    if key in ("div", "divide") and _rounding(operands):
        key = "div_floor_cpu" if _rounding(operands) == "floor" else "div_trunc_cpu"
    elif key == "sum" and given and given[0] in WIDE_UNSIGNED:
        key = "sum_dtype"
    elif key == "mean" and given and given[0].kind in "fc":
        return
    if key in ALLOWED:
        return
    if len(operands) >= 2 and key in BINARY and _promoted(operands[0], operands[1]):
        return  # (a float result: computed in it, as PyTorch's kernel of that dtype)
    name = scalar_type_name(found.data.dtype)
    kernel = KERNELS.get(key)
    if key in ("matmul", "__matmul__"):
        dims = [v.ndim for v in operands[:2] if isinstance(v, Tensor)]
        kernel = (
            "dot"
            if dims == [1, 1]
            else "bmm"
            if max(dims, default=0) > 2
            else "addmm_impl_cpu_"
            if min(dims, default=0) == 2
            else "addmv_impl_cpu"
        )
    if key in ("max", "min"):
        kernel = f"{key}_all" if len(operands) == 1 else f"{key}_cpu"
    if key in ("div_floor_cpu", "div_trunc_cpu"):
        kernel = key
    if kernel is not None:
        raise (
            GradcliError(
                f"\"{kernel}\" not implemented for '{name}'",
                hint="convert the tensor first: x.to(torch.int64)",
            )
            .mirror("NotImplementedError")
            .pytorch()
        )
    if key == "mean":
        raise GradcliError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {name}",
            hint="x.float().mean()",
        ).mirror("RuntimeError")
    if key in ("var", "std", "var_mean", "std_mean"):
        raise GradcliError(
            "std and var only support floating point and complex dtypes",
            hint="x.float().var()",
        ).mirror("RuntimeError")
    raise NotSupported(
        f"gradcli does not support {key}() on a torch.{np.dtype(found.data.dtype).name} tensor "
        "(PyTorch has only some of its operations for uint16, uint32 and uint64)",
        hint="convert the tensor first: x.to(torch.int64)",
    )


# The two-operand names whose result dtype PyTorch works out first (its promotion error, or a
# float result that another kernel computes).
BINARY = frozenset(
    """
    add sub subtract mul multiply div divide true_divide floor_divide remainder fmod pow
    __add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ __floordiv__
    __rfloordiv__ __mod__ __rmod__ __pow__ __rpow__ lt le gt ge eq ne __lt__ __le__ __gt__
    __ge__ __eq__ __ne__ maximum minimum bitwise_and bitwise_or bitwise_xor __and__ __or__
    __xor__ atan2 hypot
    """.split()
)


def _promoted(a: Any, b: Any) -> bool:
    """Whether PyTorch's operation on a and b computes in a dtype that is not a wide unsigned
    one (raising PyTorch's promotion error where it has none)."""
    from ..core.dtypes import result_type

    def part(v: Any) -> tuple[np.dtype, int | None] | None:
        if isinstance(v, Tensor):
            return (v.data.dtype, v.ndim)
        if isinstance(v, (bool, int, float, complex)):
            return (
                np.dtype(
                    np.bool_
                    if isinstance(v, bool)
                    else np.int64
                    if isinstance(v, int)
                    else np.float64
                    if isinstance(v, float)
                    else np.complex128
                ),
                None,
            )
        return None

    pa, pb = part(a), part(b)
    if pa is None or pb is None:
        return False
    return result_type([pa, pb], np.dtype(np.float32)) not in WIDE_UNSIGNED


def _dtype_of(v: Any) -> np.dtype | None:
    """The NumPy dtype of a program's torch.dtype (or of NumPy's own), else None."""
    if isinstance(v, Tensor):
        return None
    v = getattr(v, "np", v)
    if isinstance(v, np.dtype) or (isinstance(v, type) and issubclass(v, np.generic)):
        return np.dtype(v)
    return None


def _rounding(operands: Any) -> str | None:
    """div's rounding_mode, "floor" or "trunc" (None: a true division)."""
    mode = operands[-1] if operands and isinstance(operands[-1], str) else None
    return mode
