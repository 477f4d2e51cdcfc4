"""The tensor basics tutorials use around their gradients, composed of the records gradcli has:
stacking (hstack, vstack, dstack, column_stack, atleast_*d), splitting (tensor_split),
moving dimensions (movedim, unflatten, select), ordering (argsort, msort, kthvalue), the
products and blends (inner, lerp, addcmul, addcdiv, hypot), the bit and logic operations,
counting (nonzero, argwhere, count_nonzero, bincount, unique, isin, histc, nansum, nanmean,
aminmax), broadcasting helpers (broadcast_shapes, broadcast_tensors) and the dtype rules
(result_type, promote_types, can_cast, element_size).

Each differentiable one is a composition of recorded operations (its gradient is theirs),
named with PyTorch's grad_fn where PyTorch names it; the others compute on the values, as
PyTorch's do (their results do not require grad). Sizes are checked before any work.
"""

from __future__ import annotations

import builtins
import math
from typing import Any

import numpy as np

from ..base.errors import GradcliError, NotSupported
from ..core import dtypes as D
from ..core import hooks
from ..core import op as core_op
from ..core.layout import iterated
from ..core.op import apply, laid_out, link_siblings, operand_arrays, peek_seq
from ..core.tensor import (
    VMAP_STORAGE,
    Settings,
    Tensor,
    _GradMode,
    batched,
    conj_address,
    grad_enabled,
    no_grad,
    own,
    storage_elements,
    typename,
)
from ..ops import arithmetic as A
from ..ops import binary as B
from ..ops import elementwise as E
from ..ops import reduction as R
from . import args as C
from . import composite as CO
from . import functional as F
from . import indexing as I
from . import kernels as K
from .declare import declare
from .predicates import storage_offset
from .printing import MaxMin, Size


def _t(v: Any, what: str = "input") -> Tensor:
    return A.tensor_arg(v, what)


def _list(tensors: Any, fn: str) -> list[Tensor]:
    if not isinstance(tensors, (list, tuple)):
        raise GradcliError(
            f"{fn}(): argument 'tensors' (position 1) must be tuple of Tensors, not "
            f"{typename(tensors)}"
        ).mirror("TypeError")
    return [_t(v, "tensors") for v in tensors]


# --- stacking ----------------------------------------------------------------------------------


def _at_least(n: int) -> Any:
    def lift(x: Tensor) -> Tensor:
        if x.ndim >= n:
            return x
        if n == 1 or x.ndim == 0:
            return F.reshape(x, (1,) * (n - x.ndim) + x.shape)
        if n == 2:  # a vector becomes a row
            return F.unsqueeze(x, 0)
        # n == 3: a vector (k,) becomes (1, k, 1), a matrix (m, k) becomes (m, k, 1)
        return F.unsqueeze(F.unsqueeze(x, 0), -1) if x.ndim == 1 else F.unsqueeze(x, -1)

    def at_least(*tensors: Any) -> Any:
        if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
            return tuple(lift(_t(v)) for v in tensors[0])
        out = tuple(lift(_t(v)) for v in tensors)
        return out[0] if len(out) == 1 else out

    at_least.__name__ = f"atleast_{n}d"
    return at_least


atleast_1d = _at_least(1)
atleast_2d = _at_least(2)
atleast_3d = _at_least(3)


def hstack(tensors: Any) -> Tensor:
    ts = [atleast_1d(t) for t in _list(tensors, "hstack")]
    if not ts:
        raise GradcliError("hstack expects a non-empty TensorList")
    return F.cat(ts, 0 if ts[0].ndim == 1 else 1)


def vstack(tensors: Any) -> Tensor:
    ts = [atleast_2d(t) for t in _list(tensors, "vstack")]
    if not ts:
        raise GradcliError("vstack expects a non-empty TensorList")
    return F.cat(ts, 0)


def dstack(tensors: Any) -> Tensor:
    ts = [atleast_3d(t) for t in _list(tensors, "dstack")]
    if not ts:
        raise GradcliError("dstack expects a non-empty TensorList")
    return F.cat(ts, 2)


def column_stack(tensors: Any) -> Tensor:
    ts = _list(tensors, "column_stack")
    if not ts:
        raise GradcliError("column_stack expects a non-empty TensorList")
    cols = [F.reshape(t, (t.numel(), 1)) if t.ndim <= 1 else t for t in ts]
    return F.cat(cols, 1)


# --- splitting and moving dimensions -------------------------------------------------------------


def tensor_split(input: Any, indices_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """`torch.tensor_split`: n sections (the first n % size one longer), or cuts at indices."""
    input = _t(input)
    d = C.check_dim(dim, input.ndim)
    size = input.shape[d]
    if isinstance(indices_or_sections, Tensor):
        indices_or_sections = indices_or_sections.data.tolist()
    if isinstance(indices_or_sections, (list, tuple)):
        cuts = [C.int_arg(c, "indices") for c in indices_or_sections]
        bounds = [0, *cuts, size]
        pieces = [(bounds[i], bounds[i + 1]) for i in range(len(bounds) - 1)]
    else:
        n = C.int_arg(indices_or_sections, "sections")
        if n <= 0:
            raise GradcliError(f"number of sections must be larger than 0, got {n}")
        A.size_check((n,), "tensor_split's number of sections")
        base, extra = divmod(size, n)
        pieces, start = [], 0
        for i in range(n):
            length = base + (1 if i < extra else 0)
            pieces.append((start, start + length))
            start += length
    out = []
    for a, b in pieces:
        a = builtins.min(builtins.max(a + size if a < 0 else a, 0), size)
        b = builtins.min(builtins.max(b + size if b < 0 else b, a), size)
        idx = (slice(None),) * d + (slice(a, b),)
        out.append(A.named(I.getitem(input, idx), "SliceBackward0"))
    return tuple(out)


def movedim(input: Any, source: Any, destination: Any) -> Tensor:
    input = _t(input)
    src = list(source) if isinstance(source, (list, tuple)) else [source]
    dst = list(destination) if isinstance(destination, (list, tuple)) else [destination]
    if len(src) != len(dst):
        raise GradcliError(
            f"movedim: Invalid source or destination dims: source ({src} dims) should contain "
            f"the same number of dims as destination ({dst} dims)"
        )
    s = [C.check_dim(v, input.ndim) for v in src]
    t = [C.check_dim(v, input.ndim) for v in dst]
    if len(set(s)) != len(s) or len(set(t)) != len(t):
        raise GradcliError("movedim: repeated dim in `source` or `destination`")
    if input.ndim == 0:
        from .constructors import _alias

        return _alias(input)  # (nothing to move: PyTorch's alias of it)
    order: list[int | None] = [None] * input.ndim
    for a, b in zip(s, t):
        order[b] = a
    rest = iter(d for d in range(input.ndim) if d not in s)
    perm = tuple(o if o is not None else next(rest) for o in order)
    return F.permute(input, perm)


def unflatten(input: Any, dim: Any, sizes: Any) -> Tensor:
    input = _t(input)
    d = C.check_dim(dim, input.ndim)
    sizes = tuple(C.int_arg(s, "sizes") for s in sizes)
    if not sizes:
        raise GradcliError("unflatten: sizes must be non-empty")
    inner = C.infer_shape(sizes, input.shape[d]) if input.shape[d] and -1 in sizes else sizes
    if math.prod(inner) != input.shape[d]:
        raise GradcliError(
            f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim "
            f"{dim} ({input.shape[d]}) in the input tensor"
        )
    return F.view(input, input.shape[:d] + tuple(inner) + input.shape[d + 1 :])


def select(input: Any, dim: Any, index: Any) -> Tensor:
    input = _t(input)
    if input.ndim == 0:
        raise GradcliError("select() cannot be applied to a 0-dim tensor.").mirror("IndexError")
    d = C.check_dim(dim, input.ndim)
    i = C.int_arg(index, "index")
    n = input.shape[d]
    if not -n <= i < n:
        raise GradcliError(
            f"select(): index {i} out of range for tensor of size {list(input.shape)} at "
            f"dimension {d}"
        ).mirror("IndexError")
    return I.getitem(input, (slice(None),) * d + (i,))


# --- order ----------------------------------------------------------------------------------------


def argsort(input: Any, dim: int = -1, descending: bool = False, stable: bool = False) -> Tensor:
    input = _t(input).detach()  # indices only: nothing to record
    return CO.sort(input, dim=dim, descending=descending, stable=stable).indices


def msort(input: Any) -> Tensor:
    return CO.sort(input, dim=0).values


def _selected_as_aten(data: np.ndarray, d: int, at: np.ndarray, k: int) -> np.ndarray:
    """Which of several equal values ATen's quickselect picks (kthvalue's index): the slices
    where the k-th value has an equal neighbour get it from the emulation (stdalgo), up to
    CO._TIE_ORDER_MAX elements; the others keep the stable order's."""
    from ..core.stdalgo import quick_select

    moved = np.moveaxis(data, d, -1)
    n = moved.shape[-1]
    flat = moved.reshape(-1, n)
    picked = np.moveaxis(at, d, -1).reshape(-1).copy()
    kth = flat[np.arange(flat.shape[0]), picked]
    with np.errstate(invalid="ignore"):
        ties = ((flat == kth[:, None]) | ((flat != flat) & (kth != kth)[:, None])).sum(axis=1) > 1
    rows = np.flatnonzero(ties)
    if rows.size and rows.size * n <= CO._TIE_ORDER_MAX:
        for r in rows:
            picked[r] = quick_select(flat[r].tolist(), k)
        at = np.moveaxis(picked.reshape(moved.shape[:-1] + (1,)), -1, d)
    return at


def kthvalue(input: Any, k: Any, dim: int = -1, keepdim: bool = False) -> MaxMin:
    """The k-th smallest along dim (1-based), and its index: torch.return_types.kthvalue."""
    input = C.float_kernel(_t(input), "kthvalue_cpu", "fciu")
    kk = C.int_arg(k, "k")
    d = C.check_dim(dim, input.ndim)  # (a 0-d tensor takes dim 0 or -1)
    n = input.shape[d] if input.ndim else 1
    if not 1 <= kk <= n:
        raise GradcliError(f"kthvalue(): selected number k out of range for dimension {d}")
    if input.ndim == 0:
        values = A.named(F.clone(input), "KthvalueBackward0")
        return MaxMin(values, Tensor(np.zeros((), np.int64)), "kthvalue")
    order = np.argsort(input.data, axis=d, kind="stable")
    at = np.take(order, [kk - 1], axis=d)
    at = _selected_as_aten(input.data, d, at, kk - 1)
    values = A.named(CO.gather(input, d, Tensor(at)), "KthvalueBackward0")
    indices = Tensor(at.astype(np.int64))
    if not keepdim:
        values = A.named(F.squeeze(values, d), "KthvalueBackward0")
        indices = Tensor(np.squeeze(indices.data, d))
    return MaxMin(values, indices, "kthvalue")


def aminmax(input: Any, *, dim: Any = None, keepdim: bool = False) -> MaxMin:
    input = _t(input)
    if input.numel() == 0 and dim is None:
        raise GradcliError(
            "aminmax(): cannot compute aminmax over an empty dimension as the operation has "
            "no identity."
        )
    if dim is not None and input.ndim:
        F._nonempty_dims(input, (F.check_dim(dim, input.ndim),), "aminmax")
    lo = F.amin(input, () if dim is None else dim, keepdim) if dim is not None else F.amin(input)
    hi = F.amax(input, () if dim is None else dim, keepdim) if dim is not None else F.amax(input)
    # (PyTorch's one node with two outputs; gradcli's two, shown under its name)
    lo, hi = A.named(lo, "AminmaxBackward0"), A.named(hi, "AminmaxBackward0")
    link_siblings((lo, hi))
    out = MaxMin(lo, hi, "aminmax")
    out.fields = ("min", "max")
    return out


# --- products and blends ------------------------------------------------------------------------


def inner(input: Any, other: Any) -> Tensor:
    """`torch.inner`: sums over the last dimension of both (a 0-d operand scales the other)."""
    input, y = _t(input), _t(other, "other")
    if input.ndim == 0 or y.ndim == 0:
        return A.mul_t(input, y)
    if input.shape[-1] != y.shape[-1]:
        raise GradcliError(
            f"inner() the last dimension must match on both input tensors but got shapes "
            f"{list(input.shape)} and {list(y.shape)}"
        )
    if input.dtype != y.dtype:  # (ATen's inner is a tensordot: its check, no promotion)
        raise GradcliError("both inputs should have same dtype", hint="convert one: b.to(a.dtype)")
    if input.ndim == 1 and y.ndim == 1:
        return F.dot(input, y)
    k = input.shape[-1]
    rows = F.reshape(input, (-1, k))
    cols = F.transpose(F.reshape(y, (-1, k)), 0, 1)
    return F.reshape(A.matmul(rows, cols), input.shape[:-1] + y.shape[:-1])


def _fused(out: Tensor, operands: tuple, kernel: Any, label: str) -> Tensor:
    """`out`, the composition whose graph differentiates lerp of a tensor weight / hypot, given
    the values of ATen's kernel (lerp's fused form: one rounding where NumPy's composition
    rounds twice, a last-bit difference for many float32 elements; hypot correctly rounded)
    and the grad_fn PyTorch shows. The composition's last operation is an add (whose backward
    does not read its result) or hypot's sqrt (whose backward reads the result, as hypot's
    does). Only where every tensor operand has the result's float dtype."""
    dt = out.dtype
    if (
        dt.kind == "f"
        and isinstance(operands[0], Tensor)
        and all(not isinstance(v, Tensor) or v.dtype == dt for v in operands)
    ):
        values = kernel(*(v.data if isinstance(v, Tensor) else v for v in operands))
        if values.shape == out.shape and out.data.flags.writeable:
            out.data[...] = values
    return A.named(out, label)


def _lerp_kernel(start: Any, end: Any, weight: Any) -> np.ndarray:
    if not isinstance(weight, np.ndarray):
        return K.lerp(start, end, weight)
    # ATen's lerp with a tensor weight: fma(w, end - start, start) where |w| < 0.5, else
    # fma(w - 1, end - start, end), elementwise
    dt = np.asarray(start).dtype
    ct = K.opmath(dt)
    s, e, w = (np.asarray(v).astype(ct, copy=False) for v in (start, end, weight))
    small = np.abs(w) < 0.5
    return K.fma(np.where(small, w, w - ct.type(1)), e - s, np.where(small, s, e), dt)


def lerp(input: Any, end: Any, weight: Any) -> Tensor:  # noqa: A002
    """Recorded as start + weight * (end - start), shown as PyTorch's node (LerpBackward0 of a
    number weight, LerpBackward1 of a tensor one); a number weight's values are ATen's
    kernel's (`kernels.lerp`: in float32 for float16, the weight rounded once)."""
    start = _t(input)
    for name, v in (("end", end), ("weight", weight)):
        # (a 0-d weight is a CPU scalar to ATen: any float dtype)
        if isinstance(v, Tensor) and v.dtype != start.dtype and (name == "end" or v.ndim):
            raise GradcliError(
                f"expected dtype {D.cpp_type_name(start.dtype)} for `{name}` but got dtype "
                f"{D.cpp_type_name(v.dtype)}",
                hint=f"convert them to one dtype first: {name}.to(input.dtype)",
            ).mirror("RuntimeError")
    if isinstance(weight, Tensor):
        # (a 0-d float weight makes integer tensors' result float: the kernel runs in it)
        common = D.result_type([(t.dtype, t.ndim) for t in (start, end, weight)], start.dtype)
        C.kernel_dtype(common, "lerp_kernel_tensor")
    else:
        C.float_kernel(start, "lerp_kernel_scalar")
        # (the weight is taken in the kernel's computing type: float32 for float16/bfloat16)
        half = start.dtype in (np.dtype(np.float16), D.BF16)
        D.checked_scalar(weight, np.dtype(np.float32) if half else start.dtype)
    since = peek_seq()
    if isinstance(weight, Tensor) and isinstance(end, Tensor):
        one = _one_record(E.lerp_tensor, (start, end, weight), None, "LerpBackward1")
        if one is not None:
            return one
    if type(weight) in (int, float):
        # (so that the gradients are PyTorch's: g * (1 - weight) and g * weight, each rounded
        # once, each a number times the gradient: MulBackward1)
        out = F.add(_times(start, 1 - weight), _times(end, weight))
    else:
        out = F.add(start, A.mul_t(weight, F.sub(end, start)))
    if _kernel_values(out, (start, end), weight):
        from . import kernels

        out.data = kernels.lerp(start.data, end.data, weight).reshape(out.shape)
    elif isinstance(weight, Tensor):
        # a tensor weight: ATen's elementwise choice of the fused form (`_lerp_kernel`)
        fused = _fused(out, (start, end, weight), _lerp_kernel, "LerpBackward1")
        return _lerp_shown(laid_out(fused, start, end, weight), start, end, weight)
    laid_out(out, start, end, *((weight,) if isinstance(weight, Tensor) else ()))
    if isinstance(weight, Tensor):
        return _lerp_shown(A.named(out, "LerpBackward1"), start, end, weight)
    # PyTorch's LerpBackward0 (a number weight) saves nothing: a backward leaves it
    return _lerp_shown(A.frees_nothing(A.named(out, "LerpBackward0"), since), start, end)


def _lerp_shown(out: Tensor, *operands: Any) -> Tensor:
    """lerp recorded as a composition: its node shows PyTorch's one node's operands (start,
    end[, weight]) in `next_functions`."""
    if out.node is not None and all(isinstance(t, Tensor) for t in operands):
        core_op.SHOWN_INPUTS[out.node] = operands
    return out


def _times(t: Any, c: float) -> Tensor:
    if isinstance(t, Tensor) and t.dtype in (np.float32, np.float64):
        return E.scale(t, c)
    return A.mul_t(t, c)


def _legacy_value(fn: str, t1: Any, t2: Any, legacy: tuple, value: Any, shown: Any = None) -> tuple:
    """PyTorch's deprecated `addcmul(input, Number value, Tensor tensor1, Tensor tensor2)`
    (`exp_avg_sq.mul_(beta2).addcmul_(1 - beta2, grad, grad)` in older hand-written
    optimizers; still accepted, with PyTorch's warning once) as (tensor1, tensor2, value).
    `shown`: (the name the warning gives, whether the method's), torch's function by default."""
    if not legacy:
        return t1, t2, value
    number = isinstance(t1, (int, float)) and not isinstance(t1, bool)
    if len(legacy) == 1 and number and isinstance(t2, Tensor) and isinstance(legacy[0], Tensor):
        if value != 1:
            raise GradcliError(
                f"{fn}() received an invalid combination of arguments - got unrecognized "
                "keyword arguments: value"
            ).mirror("TypeError")
        from .overloads import value_warning

        value_warning(*(shown or (fn, False)))
        return t2, legacy[0], t1
    raise GradcliError(
        f"{fn}() takes 3 positional arguments but {3 + len(legacy)} were given"
    ).mirror("TypeError")


def addcmul(input: Any, tensor1: Any, tensor2: Any, *legacy: Any, value: Any = 1) -> Tensor:  # noqa: A002
    """input + value * tensor1 * tensor2, shown as AddcmulBackward0, with ATen's values
    (`kernels.addcmul`: the last step fused, float16 in float32)."""
    return _addcmul(input, tensor1, tensor2, legacy, value, None)


def _addcmul(
    input: Any,  # noqa: A002
    tensor1: Any,
    tensor2: Any,
    legacy: tuple,
    value: Any,
    shown: Any,
) -> Tensor:
    tensor1, tensor2, value = _legacy_value("addcmul", tensor1, tensor2, legacy, value, shown)
    x = _t(input)
    _check_value(value, x, tensor1, tensor2)
    x, tensor1, tensor2 = _common_float(x, tensor1, tensor2)
    whole = _integral_addc(x, tensor1, tensor2, value)
    if whole is not None:
        return whole
    one = _one_record(E.addcmul, (x, tensor1, tensor2), value, "AddcmulBackward0")
    if one is not None:
        return one
    out = F.add(x, A.mul_t(A.mul_t(tensor1, tensor2), value))
    if _kernel_values(out, (x, tensor1, tensor2), value):
        from . import kernels

        out.data = kernels.addcmul(x.data, tensor1.data, tensor2.data, value).reshape(out.shape)
    return A.named(laid_out(out, x, tensor1, tensor2), "AddcmulBackward0")


def _common_float(x: Tensor, t1: Any, t2: Any) -> tuple[Tensor, Any, Any]:
    """Tensors of mixed float dtypes as ATen's kernel takes them: each in the result's dtype
    before `value` scales (a float32 tensor1 with a float64 input and value=1e300 is not the
    inf of a float32 product); recorded casts, so each gradient returns in its own dtype."""
    if not (isinstance(t1, Tensor) and isinstance(t2, Tensor)):
        return x, t1, t2
    dt = D.promote_types(D.promote_types(x.dtype, t1.dtype), t2.dtype)
    if dt.kind != "f" or x.dtype == t1.dtype == t2.dtype:
        return x, t1, t2
    return A.cast(x, dt), A.cast(t1, dt), A.cast(t2, dt)


def _check_value(value: Any, x: Tensor, t1: Any, t2: Any) -> None:
    """addcmul / addcdiv's kernel converts `value` to the result's type: PyTorch's error
    when it does not fit (value=300 for int8, 1e39 for float32)."""
    if isinstance(t1, Tensor) and isinstance(t2, Tensor):
        dt = D.promote_types(D.promote_types(x.dtype, t1.dtype), t2.dtype)
        D.checked_scalar(value, dt)


def _integral_addc(x: Tensor, t1: Any, t2: Any, value: Any) -> Tensor | None:
    """addcmul of integer tensors: an integer result, the value cast to the integer dtype
    (toward zero, as ATen's scalar cast); of bool ones PyTorch's refusal. None otherwise."""
    if not (isinstance(t1, Tensor) and isinstance(t2, Tensor)):
        return None
    dt = D.promote_types(D.promote_types(x.dtype, t1.dtype), t2.dtype)
    if dt.kind not in "biu":
        return None
    C.kernel_dtype(dt, "addcmul_cpu_out", "iu")
    v = int(value) if isinstance(value, (int, float)) else value
    if isinstance(v, int):
        v = np.asarray(v).astype(dt)  # (converted to the type: -1 wraps into uint8's 255)
    return Tensor((x.data.astype(dt) + v * (t1.data.astype(dt) * t2.data.astype(dt))).astype(dt))


# PyTorch's words for addcdiv of two integer tensors.
_ADDCDIV_INTEGER = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv "
    "will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be "
    "implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for "
    "integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future "
    "addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), "
    "for all dtypes."
)


def addcdiv(input: Any, tensor1: Any, tensor2: Any, *legacy: Any, value: Any = 1) -> Tensor:  # noqa: A002
    """input + value * tensor1 / tensor2, shown as AddcdivBackward0, with ATen's values
    (`kernels.addcdiv`); the deprecated `addcdiv(input, value, tensor1, tensor2)` too."""
    return _addcdiv(input, tensor1, tensor2, legacy, value, None)


def _addcdiv(
    input: Any,  # noqa: A002
    tensor1: Any,
    tensor2: Any,
    legacy: tuple,
    value: Any,
    shown: Any,
) -> Tensor:
    tensor1, tensor2, value = _legacy_value("addcdiv", tensor1, tensor2, legacy, value, shown)
    x = _t(input)
    _check_value(value, x, tensor1, tensor2)
    x, tensor1, tensor2 = _common_float(x, tensor1, tensor2)
    if all(isinstance(t, Tensor) and t.dtype.kind in "biu" for t in (tensor1, tensor2)):
        raise GradcliError(_ADDCDIV_INTEGER, hint="tensor1.float() / tensor2").mirror(
            "RuntimeError"
        )
    one = _one_record(E.addcdiv, (x, tensor1, tensor2), value, "AddcdivBackward0")
    if one is not None:
        return one
    out = F.add(x, A.mul_t(A.div_t(tensor1, tensor2), value))
    if _kernel_values(out, (x, tensor1, tensor2), value):
        from . import kernels

        out.data = kernels.addcdiv(x.data, tensor1.data, tensor2.data, value).reshape(out.shape)
    return A.named(laid_out(out, x, tensor1, tensor2), "AddcdivBackward0")


def _one_record(op: Any, tensors: tuple, value: Any, label: str) -> Tensor | None:
    """addcmul / addcdiv / lerp of float tensors of one dtype (and a real `value`, or None):
    the operands expanded to the result's shape, then the op's one record (ATen's values,
    derivatives.yaml's rules: `ops.elementwise`). None where that does not apply."""
    if value is not None and (type(value) not in (int, float)):
        return None
    if not all(isinstance(t, Tensor) for t in tensors):
        return None
    dt = tensors[0].dtype
    if dt not in (np.float32, np.float64) or any(t.dtype != dt for t in tensors):
        return None
    try:
        shape = np.broadcast_shapes(*(t.shape for t in tensors))
    except ValueError:
        return None  # (the composition says so in PyTorch's words)
    ts = [t if t.shape == shape else F.expand(t, shape) for t in tensors]
    params = {} if value is None else {"value": value}
    out = apply(op, *ts, label=label, **params)
    if out.node is not None and any(a is not b for a, b in zip(ts, tensors)):
        # ATen's kernel broadcasts inside: its node shows the operands, not their expansions
        core_op.SHOWN_INPUTS[out.node] = tensors
    return out


def _addc_method(inner: Any, shown: str) -> Any:
    """The method `x.addcmul(t1, t2, value=)` (or addcdiv, or their in-place `shown`), with
    the deprecated `x.addcmul(value, t1, t2)` warned of in the method's words."""

    def method(self: Any, tensor1: Any, tensor2: Any, *legacy: Any, value: Any = 1) -> Tensor:
        return inner(self, tensor1, tensor2, legacy, value, (shown, True))

    method.__name__ = method.__qualname__ = shown.rstrip("_")
    method.__doc__ = inner.__doc__
    return method


def _kernel_values(out: Tensor, tensors: tuple, number: Any) -> bool:
    """Whether ATen's kernel of a Python number `number` and floating tensors of one dtype
    (the result's) gives the values (`kernels`): not a tensor weight, not mixed dtypes."""
    if type(number) not in (int, float) or out.dtype.kind != "f":
        return False
    return all(isinstance(t, Tensor) and t.dtype == out.dtype for t in tensors)


def hypot(input: Any, other: Any) -> Tensor:  # noqa: A002
    x, y = _t(input), _t(other, "other")
    C.float_common(x, y, "hypot_cpu")
    return apply(B.hypot, *A.operands(x, y))


# --- bits and logic -----------------------------------------------------------------------------


_SYMBOLS = {
    "bitwise_and": "&",
    "bitwise_or": "|",
    "bitwise_xor": "^",
    "bitwise_left_shift": "<<",
    "bitwise_right_shift": ">>",
}


# The kernels PyTorch names in the error for a float operand.
_KERNELS = {"bitwise_left_shift": "lshift", "bitwise_right_shift": "rshift"}


def _int_operands(name: str, x: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    """Two operands of a bit operation in PyTorch's result dtype (a Python number is a
    "wrapped number"), refused for floats in PyTorch's words."""
    parts, arrays = [], []
    for v in (x, y):
        if isinstance(v, Tensor):
            parts.append((v.dtype, v.ndim))
            arrays.append(v.data)
        elif isinstance(v, (bool, int, float)):
            parts.append((D.scalar_dtype(v, Settings.default_dtype), None))
            arrays.append(np.asarray(v))
        else:
            symbol = _SYMBOLS.get(name)
            if symbol is None:
                raise GradcliError(
                    f"{name}(): expected a tensor or a number, not {typename(v)}"
                ).mirror("TypeError")
            raise GradcliError(
                f"unsupported operand type(s) for {symbol}: '{typename(x)}' and '{typename(y)}'"
            ).mirror("TypeError")
    dt = D.result_type(parts, Settings.default_dtype)
    if dt.kind == "f" or (dt.kind == "b" and name in ("gcd", "lcm")):
        raise GradcliError(
            f"\"{_KERNELS.get(name, name)}_cpu\" not implemented for '{D.scalar_type_name(dt)}'",
            hint="`^` is exclusive or in Python, not a power: for x squared write `x ** 2`"
            if name == "bitwise_xor"
            else None,
        ).mirror("NotImplementedError")
    A.size_check(
        A.broadcast_shapes_checked(arrays[0].shape, arrays[1].shape), f"the result of {name}"
    )
    with np.errstate(over="ignore"):
        return arrays[0].astype(dt), arrays[1].astype(dt)


def _bitwise(name: str, fn: Any) -> Any:
    def f(input: Any, other: Any) -> Tensor:  # noqa: A002
        a, b = _int_operands(name, input, other)
        return Tensor(iterated(fn(a, b), operand_arrays(input, other)))

    f.__name__ = name
    return f


bitwise_and = _bitwise("bitwise_and", np.bitwise_and)
bitwise_or = _bitwise("bitwise_or", np.bitwise_or)
bitwise_xor = _bitwise("bitwise_xor", np.bitwise_xor)
gcd = _bitwise("gcd", np.gcd)
lcm = _bitwise("lcm", np.lcm)


def _shift(name: str, left: bool) -> Any:
    def f(input: Any, other: Any) -> Tensor:  # noqa: A002
        a, b = _int_operands(name, input, other)
        dt = a.dtype
        if dt == np.bool_:  # ATen's shift kernels have no bool loop
            kernel = "lshift_cpu" if left else "rshift_cpu"
            raise GradcliError(f"\"{kernel}\" not implemented for 'Bool'").mirror(
                "NotImplementedError"
            )
        bits = a.dtype.itemsize * 8
        big = (b < 0) | (b >= bits)
        safe = np.where(big, 0, b).astype(a.dtype)
        with np.errstate(over="ignore"):
            if left:
                out = np.where(big, np.zeros_like(a), np.left_shift(a, safe))
            else:
                fill = np.where(a < 0, -1, 0).astype(a.dtype) if a.dtype.kind == "i" else 0
                out = np.where(big, fill, np.right_shift(a, safe))
        return Tensor(iterated(out.astype(a.dtype), operand_arrays(input, other)))

    f.__name__ = name
    return f


bitwise_left_shift = _shift("bitwise_left_shift", True)
bitwise_right_shift = _shift("bitwise_right_shift", False)


def bitwise_not(input: Any) -> Tensor:  # noqa: A002
    a = _t(input).data
    if a.dtype.kind == "f":
        raise GradcliError(
            f"\"bitwise_not_cpu\" not implemented for '{D.scalar_type_name(a.dtype)}'"
        ).mirror("NotImplementedError")
    return Tensor(iterated(np.logical_not(a) if a.dtype == bool else np.invert(a), (a,)))


def _logic(fn: Any, name: str) -> Any:
    def f(input: Any, other: Any) -> Tensor:  # noqa: A002
        a, b = _t(input), other if isinstance(other, Tensor) else Tensor(np.asarray(other))
        A.size_check(np.broadcast_shapes(a.shape, b.shape), f"the result of {name}")
        return Tensor(iterated(fn(a.data != 0, b.data != 0), operand_arrays(a, other)))

    f.__name__ = name
    return f


logical_and = _logic(np.logical_and, "logical_and")
logical_or = _logic(np.logical_or, "logical_or")
logical_xor = _logic(np.logical_xor, "logical_xor")


def logical_not(input: Any) -> Tensor:  # noqa: A002
    a = _t(input).data
    return Tensor(iterated(np.logical_not(a), (a,)))


# --- counting -------------------------------------------------------------------------------------


def nonzero(input: Any, *, as_tuple: bool = False) -> Any:  # noqa: A002
    x = _t(input)
    I.vmap_dynamic(x, "nonzero_numpy" if as_tuple else "nonzero")
    return _nonzero(x, as_tuple)


def _nonzero(x: Tensor, as_tuple: bool) -> Any:
    where = np.nonzero(x.data) if x.ndim else np.nonzero(x.data.reshape(1))
    if as_tuple:
        return tuple(Tensor(w.astype(np.int64)) for w in where)
    if x.ndim == 0:
        return Tensor(np.zeros((len(where[0]), 0), dtype=np.int64))
    return Tensor(np.stack(where, axis=1).astype(np.int64).reshape(-1, x.ndim))


def nonzero_static(input: Any, *, size: Any, fill_value: Any = -1) -> Tensor:  # noqa: A002
    """`torch.nonzero_static`: nonzero's rows, cut or padded with `fill_value` to `size` rows."""
    x = _t(input)
    n = C.int_arg(size, "size")
    if n < 0:
        raise GradcliError("nonzero_static: 'size' must be an non-negative integer")
    fill = C.int_arg(fill_value, "fill_value")
    found = _nonzero(x, False).data[:n]
    A.size_check((n, x.ndim), "nonzero_static's result")
    out = np.full((n, x.ndim), fill, dtype=np.int64)
    out[: len(found)] = found
    return Tensor(out)


def argwhere(input: Any) -> Tensor:  # noqa: A002
    # (under vmap PyTorch runs argwhere element by element and stacks the results)
    return _nonzero(_t(input), False)


def count_nonzero(input: Any, dim: Any = None) -> Tensor:  # noqa: A002
    x = _t(input)
    d = C.reduction_dims(dim, x.ndim)
    return Tensor(np.asarray(np.count_nonzero(x.data, axis=d), dtype=np.int64))


def hash_tensor(
    input: Any,  # noqa: A002
    dim: Any = None,
    *,
    keepdim: bool = False,
    mode: int = 0,
) -> Tensor:
    """`torch.hash_tensor`: the elements made 64-bit (floats float64, integers and booleans
    int64), their bits read as uint64 and reduced by xor (mode 0, PyTorch's only one); a
    uint64 result, outside the graph."""
    x = _t(input)
    if C.int_arg(mode, "mode") != 0:
        raise GradcliError(f"Unknown hash_tensor mode: {mode}").mirror("RuntimeError")
    if x.dtype.kind == "c" or x.dtype in D.WIDE_UNSIGNED:
        raise GradcliError(
            f"\"xor_sum_cpu\" not implemented for '{D.scalar_type_name(x.dtype)}'",
            hint="hash the real and imaginary parts: torch.view_as_real(z)",
        ).mirror("NotImplementedError")
    d = C.reduction_dims(dim, x.ndim)
    if d is None and x.numel() == 0:
        raise GradcliError(
            "hash_tensor: Expected reduction dim to be specified for input.numel() == 0. "
            "Specify the reduction dim with the 'dim' argument."
        ).mirror("RuntimeError")
    for k in d if isinstance(d, tuple) else () if d is None else (d,):
        if x.shape[k] == 0:
            raise GradcliError(
                f"hash_tensor: Expected reduction dim {k} to have non-zero size."
            ).mirror("IndexError")
    wide = np.dtype(np.float64) if x.dtype.kind == "f" else np.dtype(np.int64)
    bits = np.asarray(x.data).astype(wide).view(np.uint64)
    out = np.bitwise_xor.reduce(bits, axis=d, keepdims=bool(keepdim))
    return Tensor(np.asarray(out, dtype=np.uint64))


def bincount(input: Any, weights: Any = None, minlength: int = 0) -> Tensor:  # noqa: A002
    x = _t(input)
    if x.dtype.kind not in "iu":  # (ATen's dispatch, before its checks: no float, no bool)
        raise GradcliError(
            f"\"bincount_cpu\" not implemented for '{D.scalar_type_name(x.dtype)}'"
        ).mirror("NotImplementedError")
    if x.ndim != 1:
        raise GradcliError("bincount only supports 1-d non-negative integral inputs.")
    if x.numel() and x.data.min() < 0:
        raise GradcliError("bincount only supports 1-d non-negative integral inputs.")
    n = builtins.max(int(x.data.max()) + 1 if x.numel() else 0, C.int_arg(minlength, "minlength"))
    A.size_check((n,), "bincount's result")
    if weights is None:
        return Tensor(np.bincount(x.data.astype(np.int64), minlength=n).astype(np.int64))
    w = _t(weights, "weights")
    idx = x.data.astype(np.int64)
    if w.requires_grad and grad_enabled() and w.dtype.kind == "f":
        # (PyTorch's result then requires grad, with no derivative: `ops.binary.bincount`)
        return apply(B.bincount, w, index=idx, minlength=n)
    return Tensor(B.bincount_values(w.data, idx, n))


def unique(
    input: Any,  # noqa: A002
    sorted: bool = True,  # noqa: A002
    return_inverse: bool = False,
    return_counts: bool = False,
    dim: Any = None,
) -> Any:
    x = _t(input)
    I.vmap_dynamic(x, "_unique2" if dim is None else "unique_dim")
    d = None if dim is None else C.check_dim(dim, x.ndim)
    return _unique(x, d, False, return_inverse, return_counts)


def unique_consecutive(
    input: Any,  # noqa: A002
    return_inverse: bool = False,
    return_counts: bool = False,
    dim: Any = None,
) -> Any:
    """`torch.unique_consecutive`: each run of equal neighbours (elements, or slices along
    `dim`) kept once; NaNs are never equal, so each is its own run."""
    x = _t(input)
    I.vmap_dynamic(x, "unique_consecutive")
    d = None if dim is None else C.check_dim(dim, x.ndim)
    return _unique(x, d, True, return_inverse, return_counts)


def _unique(x: Tensor, d: int | None, consecutive: bool, inverse: bool, counts: bool) -> Any:
    """The values (`ops.binary.unique`'s record where the input requires grad: PyTorch's
    values then require grad, with no derivative), the inverse indices and the counts."""
    values, inv, cnt = B.unique_parts(x.data, d, consecutive)
    if (x.requires_grad and grad_enabled()) or _GradMode.dual:
        first = apply(
            B.unique, x, label=B.unique_node(d, consecutive), dim=d, consecutive=consecutive
        )
    else:
        first = Tensor(values)
    out: list[Tensor] = [first]
    if inverse:
        out.append(Tensor(inv))
    if counts:
        out.append(Tensor(cnt))
    return out[0] if len(out) == 1 else tuple(out)


def isin(
    elements: Any, test_elements: Any, *, assume_unique: bool = False, invert: bool = False
) -> Tensor:
    e = elements if isinstance(elements, Tensor) else Tensor(np.asarray(elements))
    t = test_elements if isinstance(test_elements, Tensor) else Tensor(np.asarray(test_elements))
    return Tensor(np.isin(e.data, t.data, invert=bool(invert)))


def histc(input: Any, bins: int = 100, min: Any = 0, max: Any = 0) -> Tensor:  # noqa: A002
    x = _t(input)
    if x.dtype.kind != "f":  # (bool fails first in the bin edges' linspace)
        kernel = "linspace_cpu" if x.dtype == np.bool_ else "histogram_cpu"
        raise GradcliError(
            f"\"{kernel}\" not implemented for '{D.scalar_type_name(x.dtype)}'"
        ).mirror("NotImplementedError")
    n = C.int_arg(bins, "bins")
    if n <= 0:  # (ATen's histc runs histogram's checks)
        raise GradcliError(f"torch.histogram(): bins must be > 0, but got {n} for dimension 0")
    A.size_check((n,), "histc's bins")
    lo, hi = float(min), float(max)
    data = x.data.astype(np.float64).reshape(-1)
    if lo == hi and data.size:  # (aminmax: a NaN anywhere makes both NaN)
        lo, hi = float(data.min()), float(data.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise GradcliError(f"torch.histc: range of [{lo:g}, {hi:g}] is not finite")
    if not lo < hi:
        raise GradcliError("torch.histc: max must be larger than min")
    counts = np.zeros(n, dtype=np.float64)
    inside = data[(data >= lo) & (data <= hi)]
    pos = np.minimum(((inside - lo) * n / (hi - lo)).astype(np.int64), n - 1)
    np.add.at(counts, pos, 1)
    return Tensor(counts.astype(x.dtype))


def nansum(input: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:  # noqa: A002
    x = F.reduced_dtype(_t(input), dtype, "nansum")  # (integer and bool sums int64, as sum's)
    if x.dtype.kind == "c":
        raise GradcliError(
            "nansum on CPU does not support complex inputs", hint="x.real.nansum()"
        ).mirror("RuntimeError")
    out = apply(R.nansum, x, dim=C.reduction_dims(dim, x.ndim), keepdim=bool(keepdim))
    return F.kept_dtype(out, x)


def nanmean(input: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:  # noqa: A002
    x = _t(input)
    if dtype is not None:
        x = F.to_dtype(x, D.check_dtype(dtype, fn="nanmean"))
    if x.dtype.kind != "f":
        raise GradcliError(
            f"nanmean(): expected input to have floating point or complex dtype but got "
            f"{D.torch_name(x.dtype).replace('torch.', '').capitalize()}"
        )
    kept = Tensor((~np.isnan(x.data)).astype(x.dtype))
    return A.div_t(
        nansum(x, dim, keepdim), F.sum(kept, dim, keepdim) if dim is not None else F.sum(kept)
    )


# --- broadcasting and dtypes ---------------------------------------------------------------------


def broadcast_shapes(*shapes: Any) -> Size:
    """`torch.broadcast_shapes`, with the error its Python implementation raises."""
    sizes, shown = [], []
    for s in shapes:
        if isinstance(s, (int, np.integer)) and not isinstance(s, bool):
            sizes.append((int(s),))
            shown.append(str((int(s),)))
        elif isinstance(s, (list, tuple)):
            sizes.append(tuple(C.int_arg(v, "shape") for v in s))
            shown.append(str(list(sizes[-1]) if isinstance(s, list) else s))
        else:
            raise GradcliError(
                f"Input shapes should be of type ints, a tuple of ints, or a list of ints, got "
                f"{typename(s)}"
            ).mirror("RuntimeError")
    ndim = builtins.max((len(s) for s in sizes), default=0)
    result = [1] * ndim
    for j, s in enumerate(sizes):
        for i in range(-1, -1 - len(s), -1):
            if s[i] < 0:
                raise GradcliError(
                    f"Trying to create tensor with negative dimension ({s[i]}): ({s[i]})"
                )
            if s[i] == 1 or s[i] == result[i]:
                continue
            if result[i] != 1:
                raise GradcliError(
                    f"Attempting to broadcast a dimension of length {s[i]} at {i}! Mismatching "
                    f"argument at index {j} had {shown[j]}; but expected shape should be "
                    f"broadcastable to {result}"
                )
            result[i] = s[i]
    return Size(tuple(result))


def broadcast_tensors(*tensors: Any) -> tuple[Tensor, ...]:
    ts = [_t(v, "tensors") for v in tensors]
    shape = tuple(broadcast_shapes(*(t.shape for t in ts)))
    for t in ts:
        F.expand_check(t.shape, shape, t.dtype)
    # a tensor already of the shape is returned itself, as PyTorch's (no ExpandBackward0)
    return tuple(t if t.shape == shape else F.expand(t, shape) for t in ts)


def meshgrid(*tensors: Any, indexing: Any = None) -> tuple[Tensor, ...]:
    """`torch.meshgrid(x, y, indexing='ij')`: each 0-d or 1-d tensor laid along its own axis
    and expanded (views: ExpandBackward0); 'xy' puts the first two axes the other way round."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        hooks.warn(
            "torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
            "argument."
        )
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise GradcliError(
            'torch.meshgrid: indexing must be one of "xy" or "ij", but received: '
            f"{str(indexing)[:40]}"
        ).mirror("RuntimeError")
    if not tensors:
        raise GradcliError("meshgrid expects a non-empty TensorList").mirror("RuntimeError")
    ts = [_t(v, "tensors") for v in tensors]
    for t in ts:
        if t.ndim > 1:
            raise GradcliError(
                "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a tensor "
                f"of shape {list(t.shape)}"
            ).mirror("RuntimeError")
    if any(t.dtype != ts[0].dtype for t in ts):
        raise GradcliError("meshgrid expects all tensors to have the same dtype").mirror(
            "RuntimeError"
        )
    axis = list(range(len(ts)))
    if indexing == "xy" and len(ts) >= 2:
        axis[0], axis[1] = 1, 0
    shape = [0] * len(ts)
    for t, a in zip(ts, axis):
        shape[a] = t.data.size
    A.size_check(tuple(shape), "the grids of torch.meshgrid()")
    out = []
    for t, a in zip(ts, axis):
        view = [1] * len(ts)
        view[a] = -1
        out.append(F.expand(F.view(t, *view), *shape))
    return tuple(out)


def _participant(v: Any) -> tuple[np.dtype, int | None]:
    if isinstance(v, Tensor):
        return v.dtype, v.ndim
    if isinstance(v, (bool, int, float)):
        return D.scalar_dtype(v, Settings.default_dtype), None
    raise GradcliError(
        f"result_type() received an invalid combination of arguments - got ({typename(v)})"
    ).mirror("TypeError")


def result_type(tensor: Any, other: Any) -> np.dtype:
    """`torch.result_type`: the dtype an operation on the two would have."""
    return D.result_type([_participant(tensor), _participant(other)], Settings.default_dtype)


def promote_types(type1: Any, type2: Any) -> np.dtype:
    return D.promote_types(np.dtype(type1), np.dtype(type2))


def can_cast(from_: Any, to: Any) -> bool:
    order = "biuf"
    s, d = np.dtype(from_).kind, np.dtype(to).kind
    if s == "u":
        s = "i"
    if d == "u":
        d = "i"
    return order.index(s) <= order.index(d)


def element_size(x: Tensor) -> int:
    return D.itemsize(_t(x).dtype)


def data_ptr(x: Tensor) -> int:
    """`x.data_ptr()`: the address of the tensor's first element. gradcli's views are NumPy
    views of their base's array, so two tensors on the same memory compare equal as PyTorch's
    do (`x.view(2, -1)`; not `x.clone()`, not `x[1::2]`, whose first element is elsewhere).
    The number itself differs from run to run, as PyTorch's. Lent data (`core.tensor.lend`)
    is copied first: its address would change at its first write."""
    x = _t(x)
    if _GradMode.vmapped and batched(x):
        raise GradcliError(VMAP_STORAGE)
    own(x)
    conj = conj_address(x)  # (a conjugate view's: in the storage of the tensor it conjugates)
    return int(x.data.__array_interface__["data"][0] if conj is None else conj)


class UntypedStorage:
    """`x.untyped_storage()`: the bytes under a tensor, as PyTorch's `UntypedStorage` shows
    them. Views share their base's storage (`x.detach()`, `x[1:]`, `x.view(...)`): the same
    `data_ptr()`, the same bytes, and `==` between the two (PyTorch hands back one storage
    object for one memory: `==` compares where the bytes are). Its bytes are the base's
    values in memory order, read when asked (a later in-place change shows)."""

    PROGRAM_ATTRIBUTES = ("data_ptr", "nbytes", "size", "tolist", "element_size")

    def __init__(self, root: Tensor, start: int = 0, stop: int | None = None):
        self.root = root
        # a slice of a storage (`u[4:8]`) is a storage of those bytes, on the same memory
        self.start = start
        self.stop = stop

    def _bytes(self) -> bytes:
        own(self.root)
        whole = np.ascontiguousarray(self.root.data).tobytes()
        return whole if self.start == 0 and self.stop is None else whole[self.start : self.stop]

    def data_ptr(self) -> int:
        own(self.root)
        return int(self.root.data.__array_interface__["data"][0]) + self.start

    def nbytes(self) -> int:
        whole = int(storage_elements(self.root) * self.root.data.itemsize)
        return (whole if self.stop is None else self.stop) - self.start

    def _slice(self, key: slice) -> UntypedStorage:
        """`storage[a:b]`: the bytes a to b (as Python's slice bounds them) on the same
        memory; a step other than 1 is PyTorch's error."""
        start, stop, step = key.indices(self.nbytes())
        if step != 1:
            raise GradcliError(
                f"Trying to slice with a step of {step}, but only a step of 1 is supported"
            ).mirror("RuntimeError")
        return UntypedStorage(self.root, self.start + start, self.start + max(start, stop))

    def size(self) -> int:
        return self.nbytes()

    def element_size(self) -> int:
        return 1

    def tolist(self) -> list[int]:
        A.size_check((self.nbytes(),), "the list of a storage's bytes")
        return list(self._bytes())

    def __len__(self) -> int:
        return self.size()

    program_len = __len__

    def _index(self, key: Any, setting: bool) -> int:
        """The position `storage[key]` names, with PyTorch's errors: an int (negative from
        the end, where PyTorch takes it), not a bool, a float or a slice."""
        name = "TypedStorage" if isinstance(self, TypedStorage) else "UntypedStorage"
        if isinstance(key, slice):
            if name == "TypedStorage":
                raise GradcliError(
                    "slices are only supported in UntypedStorage.__getitem__"
                ).pytorch()
            raise NotSupported(  # (program_getitem takes slices first: a write is left)
                "writing into a slice of a storage is not supported",
                hint="write each byte: storage[i] = value",
            )
        if isinstance(key, (bool, np.bool_)) or not isinstance(key, (int, np.integer)):
            shown = f"<class 'torch.storage.{name}'>" if name == "TypedStorage" else "torch." + name
            if name == "UntypedStorage":
                raise GradcliError(f"can't index a {shown} with {typename(key)}").mirror(
                    "TypeError"
                )
            # (TypedStorage's Python: a bool reaches its index wrapping, a TypeError; any
            # other type its check of the index, a RuntimeError)
            error = GradcliError(f"can't index a {shown} with <class '{typename(key)}'>")
            raise error.mirror("TypeError" if isinstance(key, bool) else "RuntimeError")
        n, i = self.size(), int(key)
        if i < 0 and name == "UntypedStorage" and setting:
            raise GradcliError("out of bounds").mirror("RuntimeError")
        j = i + n if i < 0 else i
        if not 0 <= j < n:
            raise GradcliError(f"index {i} out of range for storage of size {n}").mirror(
                "IndexError"
            )
        return j

    def _flat(self) -> np.ndarray:
        """The root's array in memory order, writable in place (a C-contiguous root's own)."""
        own(self.root)
        arr = self.root.data
        if not arr.flags.c_contiguous or not arr.flags.writeable:
            raise NotSupported(
                "writing into the storage of this tensor is not supported: gradcli does not "
                "hold its elements in one block",
                hint="change the tensor itself: x.view(-1)[i] = value",
            )
        return arr.reshape(-1)

    def program_getitem(self, key: Any) -> Any:
        if isinstance(key, slice) and not isinstance(self, TypedStorage):
            return self._slice(key)
        j = self._index(key, False)
        return self._bytes()[j]

    def program_setitem(self, key: Any, value: Any) -> None:
        j = self._index(key, True)
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise GradcliError(
                f"can only set storage content with a int types, but got {typename(value)} instead"
            ).mirror("RuntimeError")
        self._flat().view(np.uint8)[self.start + j] = int(value) % 256

    def __eq__(self, other: object) -> bool:  # one memory, one storage (`x.detach()`'s too)
        if not isinstance(other, UntypedStorage):
            return False
        if self.sliced or other.sliced:  # (PyTorch makes a new object for each slice)
            return other is self
        return other.root is self.root or (
            other.data_ptr() == self.data_ptr() and other.nbytes() == self.nbytes()
        )

    @property
    def sliced(self) -> bool:
        return self.start != 0 or self.stop is not None

    def __hash__(self) -> int:
        return self.data_ptr()

    def __repr__(self) -> str:
        A.size_check((self.nbytes(),), "the printing of a storage's bytes")
        body = "\n".join(f" {b}" for b in self._bytes()) or " "
        return f"{body}\n[torch.storage.UntypedStorage(device=cpu) of size {self.nbytes()}]"

    def program_typename(self) -> str:
        return "torch.storage.UntypedStorage"


def untyped_storage(x: Tensor) -> UntypedStorage:
    """`x.untyped_storage()`: the storage of the tensor the view chain starts from."""
    x = _t(x)
    if _GradMode.vmapped and batched(x):
        raise GradcliError(VMAP_STORAGE)
    root = x
    while root._base is not None:
        root = root._base
    if root is not x:
        own(root)
        if not np.shares_memory(x.data, root.data):
            raise GradcliError(
                "untyped_storage() of this view is not supported: gradcli holds its values "
                "apart from the tensor it is a view of",
                hint="compare the tensors' values instead",
            )
    return UntypedStorage(root)


_TYPED_STORAGE_WARNING = (
    "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be "
    "the only storage class. This should only matter to you if you are using storages "
    "directly.  To access UntypedStorage directly, use tensor.untyped_storage() instead of "
    "tensor.storage()"
)


LEGACY_STORAGE_TYPES = {
    "float32": "FloatTensor",
    "float64": "DoubleTensor",
    "float16": "HalfTensor",
    "bfloat16": "BFloat16Tensor",
    "int64": "LongTensor",
    "int32": "IntTensor",
    "int16": "ShortTensor",
    "int8": "CharTensor",
    "uint8": "ByteTensor",
    "bool": "BoolTensor",
}


class TypedStorage(UntypedStorage):
    """`x.storage()` (deprecated in PyTorch, still in older tutorials on views and memory):
    the elements under a tensor in memory order, in its dtype, shared by its views (the same
    `data_ptr()`)."""

    PROGRAM_ATTRIBUTES = ("data_ptr", "nbytes", "size", "tolist", "element_size", "dtype")
    DTYPE_IS_TORCH = True  # (its dtype is a torch.dtype to the program; np.finfo's is NumPy's)

    def size(self) -> int:
        return int(self.root.data.size)

    def element_size(self) -> int:
        return int(self.root.data.itemsize)

    def __len__(self) -> int:
        return self.size()

    program_len = __len__

    @property
    def dtype(self) -> np.dtype:
        return self.root.data.dtype

    def program_getitem(self, key: Any) -> Any:
        j = self._index(key, False)
        own(self.root)
        return np.ascontiguousarray(self.root.data).reshape(-1)[j].item()

    def program_setitem(self, key: Any, value: Any) -> None:
        """`x.storage()[i] = v`: writes the element in place, as PyTorch's fill of a one-element
        view (a float into an integer storage truncates)."""
        j = self._index(key, True)
        if isinstance(value, Tensor):
            if value.data.size != 1:
                raise GradcliError(
                    f"fill_ only supports 0-dimension value tensor but got tensor with "
                    f"{value.data.ndim} dimensions."
                ).pytorch()
            value = value.data.reshape(()).item()
        if not isinstance(value, (bool, int, float, complex, np.number, np.bool_)):
            kind = D.torch_name(self.root.dtype).removeprefix("torch.")
            legacy = LEGACY_STORAGE_TYPES.get(kind, "Tensor")
            raise GradcliError(f"can't assign a {typename(value)} to a torch.{legacy}").mirror(
                "TypeError"
            )
        flat = self._flat()
        with np.errstate(all="ignore"):
            flat[j] = np.asarray(value).astype(flat.dtype)

    def tolist(self) -> list:
        A.size_check((self.size(),), "the list of a storage's elements")
        own(self.root)
        return np.ascontiguousarray(self.root.data).reshape(-1).tolist()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TypedStorage) and UntypedStorage.__eq__(self, other)

    def __hash__(self) -> int:
        return self.data_ptr()

    def __repr__(self) -> str:
        body = "\n".join(f" {v}" for v in self.tolist()) or " "
        kind = D.torch_name(self.root.dtype).removeprefix("torch.")
        return (
            f"{body}\n[torch.storage.TypedStorage(dtype=torch.{kind}, device=cpu) of size "
            f"{self.size()}]"
        )

    def program_typename(self) -> str:
        return "torch.storage.TypedStorage"


def storage(x: Tensor) -> TypedStorage:
    """`x.storage()`: the typed storage of the tensor the view chain starts from, after
    PyTorch's deprecation warning (once)."""
    hooks.warn(_TYPED_STORAGE_WARNING, once=True)
    return TypedStorage(untyped_storage(x).root)


# --- small elementwise functions, predicates and splits (PyTorch's other names) ------------------


def positive(input: Any) -> Tensor:  # noqa: A002
    """`torch.positive(x)`: x itself (PyTorch returns the same tensor), refused for bool."""
    x = _t(input)
    if x.dtype == np.bool_:
        raise GradcliError("The `+` operator, on a bool tensor is not supported.").pytorch()
    return x


def _angle(factor: float, label: str) -> Any:
    def convert(input: Any) -> Tensor:  # noqa: A002
        # ATen multiplies by a wrapped scalar (an integer input in the default float dtype)
        x = A.floating(_t(input))
        return A.named(A.mul_t(x, factor), label)

    return convert


deg2rad = _angle(math.pi / 180, "Deg2RadBackward0")
rad2deg = _angle(180 / math.pi, "Rad2DegBackward0")


def _mask(fn: Any, what: str) -> Any:
    def test(input: Any) -> Tensor:  # noqa: A002
        x = _t(input)
        if x.dtype.kind == "c":
            raise GradcliError(f"{what} does not support complex inputs.")
        return Tensor(iterated(fn(x.data), (x.data,)))

    return test


signbit = _mask(np.signbit, "signbit")
isposinf = _mask(np.isposinf, "isposinf")
isneginf = _mask(np.isneginf, "isneginf")


def _nan_ignoring(larger: bool, label: str) -> Any:
    def pick(input: Any, other: Any) -> Tensor:  # noqa: A002
        # The element of input where it is the larger (smaller) or other is nan, else other's:
        # PyTorch's fmax/fmin values and its backward's masks (a tie goes to input).
        x = _t(input)
        if not isinstance(other, Tensor):
            raise GradcliError(
                f"{label[:4].lower()}(): argument 'other' (position 2) must be Tensor, not "
                f"{typename(other)}"
            ).mirror("TypeError")
        y = other
        if x.dtype == y.dtype and x.dtype.kind == "f" and x.dtype.isnative:
            # (the record: derivatives.yaml's masks, and its forward formula)
            return laid_out(apply(B.fmax if larger else B.fmin, x, y), x, y)
        keep = F.ge(x, y) if larger else F.le(x, y)
        keep = Tensor(keep.data | np.isnan(y.data) if y.dtype.kind == "f" else keep.data)
        return A.named(laid_out(F.where(keep, x, y), x, y), label)

    return pick


fmax = _nan_ignoring(True, "FmaxBackward0")
fmin = _nan_ignoring(False, "FminBackward0")


def is_nonzero(input: Any) -> bool:  # noqa: A002
    x = _t(input)
    if x.numel() == 0:
        raise GradcliError("Boolean value of Tensor with no values is ambiguous")
    if x.numel() > 1:
        raise GradcliError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(x.data.reshape(()) != 0)


def is_same_size(input: Any, other: Any) -> bool:  # noqa: A002
    return tuple(_t(input).shape) == tuple(_t(other, "other").shape)


def get_device(input: Any) -> int:  # noqa: A002
    """`x.get_device()`: -1, a CPU tensor's."""
    _t(input)
    return -1


def _directional_split(name: str, dim: int, least: int) -> Any:
    def split(input: Any, indices_or_sections: Any) -> tuple[Tensor, ...]:  # noqa: A002
        x = _t(input)
        if x.ndim < least:
            raise GradcliError(
                f"torch.{name} requires a tensor with at least {least} dimension, but got a "
                f"tensor with {x.ndim} dimensions!"
            )
        d = 0 if name == "hsplit" and x.ndim == 1 else dim
        if not isinstance(indices_or_sections, (list, tuple, Tensor)):
            n = C.int_arg(indices_or_sections, "sections")
            if n == 0 or x.shape[d] % n:
                raise GradcliError(
                    f"torch.{name} attempted to split along dimension {d}, but the size of "
                    f"the dimension {x.shape[d]} is not divisible by the split_size {n}!"
                )
        return tensor_split(x, indices_or_sections, d)

    return split


hsplit = _directional_split("hsplit", 1, 1)
vsplit = _directional_split("vsplit", 0, 2)
dsplit = _directional_split("dsplit", 2, 3)


def diagflat(input: Any, offset: int = 0) -> Tensor:  # noqa: A002
    """`torch.diagflat`: the flattened input on the `offset` diagonal of a square matrix."""
    x = _t(input)
    flat = F.reshape(x, (-1,))
    out = CO.diag_embed(flat, C.int_arg(offset, "offset"))
    return A.named(out, "DiagEmbedBackward0")


def vdot(input: Any, other: Any) -> Tensor:  # noqa: A002
    """`torch.vdot`: the dot product of two vectors (real: the conjugate is the vector)."""
    x, y = _t(input), _t(other, "other")
    if x.ndim == 1 and y.ndim == 1 and x.shape == y.shape and x.dtype != y.dtype:
        raise GradcliError(
            "dot : expected both vectors to have same dtype, but found "
            f"{D.scalar_type_name(x.dtype)} and {D.scalar_type_name(y.dtype)}"
        )
    if x.dtype.kind == "c":  # (conj(x) . y: the first vector conjugated)
        x = F.conj(x)
    return A.named(F.dot(x, y), "VdotBackward0")


def sum_to_size(input: Any, *size: Any) -> Tensor:  # noqa: A002
    """`x.sum_to_size(*size)`: x summed over the dimensions that broadcasting `size` to x's
    shape would expand (the leading ones removed): the gradient of a broadcast, by hand."""
    x = _t(input)
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    if len(size) > 64:  # (no tensor has more dimensions: the message stays short)
        raise GradcliError(
            f"size of {len(size)} dimensions is not expandable to size {{{list(x.shape)}}}."
        )
    shape = tuple(C.int_arg(s, "size") for s in size)
    lead = x.ndim - len(shape)
    if lead < 0 or any(s != 1 and s != n for s, n in zip(shape, x.shape[lead:])):
        raise GradcliError(f"size {{{list(shape)}}} is not expandable to size {{{list(x.shape)}}}.")
    if shape == tuple(x.shape):
        return x
    dims = tuple(range(lead)) + tuple(
        lead + i for i, s in enumerate(shape) if s == 1 and x.shape[lead + i] != 1
    )
    out = F.sum(x, dim=dims, keepdim=True) if dims else x
    return F.view(out, shape) if lead else out


def scalar_tensor(
    s: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False, **_: Any
) -> Tensor:
    """`torch.scalar_tensor(s)`: a 0-d tensor of s, in the default float dtype unless given."""
    from .constructors import tensor

    if isinstance(s, Tensor):
        if s.numel() != 1:
            raise GradcliError(f"a Tensor with {s.numel()} elements cannot be converted to Scalar")
        s = s.data.reshape(()).item()
    from .args import numpy_number

    s = numpy_number(s)
    if isinstance(s, bool) or isinstance(s, (int, float)):
        return tensor(
            float(s) if dtype is None else s,
            dtype=Settings.default_dtype if dtype is None else dtype,
            requires_grad=requires_grad,
        )
    raise GradcliError(
        f"scalar_tensor(): argument 's' (position 1) must be Number, not {typename(s)}"
    ).mirror("TypeError")


_UNSET: Any = object()  # requires_grad not given: the tensor's own, with PyTorch's warning
ASARRAY_REQUIRES_GRAD = (
    "torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead of "
    "False. Pass requires_grad=False explicitly to get the old behavior and silence this warning."
)


def asarray(
    obj: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    copy: Any = None,
    requires_grad: Any = _UNSET,
) -> Tensor:
    """`torch.asarray(obj)` as PyTorch 2.13 has it. A tensor given is returned as it is, or
    converted (`obj.to(dtype)`) or copied (`copy=True`: `obj.clone()`) in the graph; without
    `requires_grad` the result keeps the tensor's (PyTorch warns, once, when that is True);
    with it, a leaf's flag is set in place (on `obj` itself when it is returned) and a computed
    tensor asked not to require grad is detached. A NumPy array shares its memory as
    torch.as_tensor's does; any other data makes a new tensor."""
    from ..core.dtypes import check_dtype
    from .constructors import as_tensor, tensor

    dt = None if dtype is None else check_dtype(dtype, fn="asarray")
    if isinstance(obj, Tensor):
        out = obj
        if dt is not None and dt != obj.dtype:
            if copy is False:
                raise GradcliError(
                    f"can't alias tensor with dtype '{D.scalar_type_name(obj.dtype)}' into "
                    f"dtype '{D.scalar_type_name(dt)}'.",
                    hint="leave out copy=False: a tensor of another dtype is a new tensor",
                ).mirror("ValueError")
            out = F.to_dtype(obj, dt)
        elif copy:
            out = F.clone(obj)
        if requires_grad is _UNSET:
            want = obj.requires_grad
            if want:
                hooks.warn(
                    ASARRAY_REQUIRES_GRAD,
                    "the result is in the graph of the tensor given, as PyTorch 2.13 makes it",
                    once=True,
                )
        else:
            want = bool(requires_grad)
        if want and out.dtype.kind not in "fc":
            raise GradcliError(
                "Only Tensors of floating point and complex dtype can require gradients",
                hint="pass requires_grad=False, or a floating point dtype",
            )
        if out.requires_grad != want:
            if out.node is None:
                out.requires_grad_(want)
            else:
                out = out.detach()
        return out
    flag = False if requires_grad is _UNSET else bool(requires_grad)
    if isinstance(obj, np.ndarray) and not copy:
        out = as_tensor(obj, dtype=dt)
        if flag:
            out.requires_grad_()
        return out
    return tensor(obj, dtype=dt, requires_grad=flag)


def unravel_index(indices: Any, shape: Any) -> tuple[Tensor, ...]:
    """`torch.unravel_index`: the coordinates of flat indices in a tensor of `shape` (each
    taken modulo its size, from the last dimension, as PyTorch's floor division gives)."""
    if not isinstance(indices, Tensor):
        raise GradcliError(f"'{typename(indices)}' object has no attribute 'is_complex'").mirror(
            "AttributeError"
        )
    if indices.dtype.kind not in "iu":
        raise GradcliError(
            f"expected 'indices' to be integer dtype, but got {D.torch_name(indices.dtype)}"
        ).mirror("TypeError")
    sizes = (shape,) if isinstance(shape, int) else tuple(shape)
    dims = [C.int_arg(n, "shape") for n in sizes]
    if any(n < 0 for n in dims):
        raise GradcliError("'shape' cannot have negative values, but got " + str(tuple(dims)))
    # (one tensor of the indices' size per dimension: checked before any is made)
    A.size_check((len(dims), indices.numel()), "the output of unravel_index")
    rest = indices.data.astype(np.int64)
    coords = []
    for n in reversed(dims):
        if n == 0:
            coords.append(np.zeros_like(rest))
            continue
        coords.append(np.mod(rest, n))
        rest = np.floor_divide(rest, n)
    return tuple(Tensor(c) for c in reversed(coords))


class TypeInfo:
    """`torch.finfo(dtype)` / `torch.iinfo(dtype)`: the numeric limits of a dtype."""

    PROGRAM_ATTRIBUTES = (
        "bits",
        "max",
        "min",
        "eps",
        "tiny",
        "smallest_normal",
        "resolution",
        "dtype",
    )

    def __init__(self, dt: np.dtype, floating: bool):
        self.floating = floating
        self.dtype = D.TORCH_NAMES.get(dt, dt.name)
        self.bits = dt.itemsize * 8
        if dt == D.BF16:  # 8 bits of exponent as float32, 8 of significand
            self.bits = 16
            self.max = float(np.float32(2**128 - 2**120))
            self.min = -self.max
            self.eps, self.tiny = 2.0**-7, 2.0**-126
            self.smallest_normal = self.tiny
            self.resolution = 0.01
        elif floating:
            info = np.finfo(dt)
            self.max, self.min = float(info.max), float(info.min)
            self.eps, self.tiny = float(info.eps), float(info.smallest_normal)
            self.smallest_normal = self.tiny
            # (PyTorch's resolution is the double 10**-digits10, not a value of the dtype)
            self.resolution = 10.0 ** -int(info.precision)
        else:
            iinfo = np.iinfo(dt)
            self.max, self.min = int(iinfo.max), int(iinfo.min)

    def __repr__(self) -> str:
        if not self.floating:
            # (PyTorch streams both limits as C doubles: %g, so int32's are -2.14748e+09)
            return f"iinfo(min={float(self.min):g}, max={float(self.max):g}, dtype={self.dtype})"
        return (
            f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
            f"eps={self.eps:g}, smallest_normal={self.tiny:g}, tiny={self.tiny:g}, "
            f"dtype={self.dtype})"
        )


def finfo(type: Any = None) -> TypeInfo:  # noqa: A002
    dt = np.dtype(Settings.default_dtype if type is None else type)
    if dt.kind == "c":  # a complex dtype's limits are those of its real part's dtype
        dt = np.dtype(dt.char.lower())
    if dt.kind != "f":
        raise GradcliError(
            "finfo(): argument 'type' (position 1) must be torch.dtype (a floating point type)"
        ).mirror("TypeError")
    return TypeInfo(dt, True)


def iinfo(type: Any) -> TypeInfo:  # noqa: A002
    dt = np.dtype(type)
    if dt.kind == "b":
        raise (
            GradcliError("torch.bool is not supported by torch.iinfo").mirror("TypeError").pytorch()
        )
    if dt.kind not in "iu":
        raise GradcliError(
            # (PyTorch 2.13 names its own class there, for every float dtype)
            "torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'"
        ).mirror("TypeError")
    return TypeInfo(dt, False)


# --- window functions -------------------------------------------------------------------------

_WINDOW_EXTRA = {
    "hann_window": (),
    "bartlett_window": (),
    "blackman_window": (),
    "hamming_window": ("alpha", "beta"),
    "kaiser_window": ("beta",),
}
_WINDOW_DEFAULTS = {"alpha": 0.54, "beta": 0.46}
_KW = (
    "*, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
    "bool pin_memory = False, bool requires_grad = False)"
)
# C++'s names of the element types, as PyTorch's message on a non-float dtype shows them
_CPP_NAMES = {
    "int64": "long int",
    "int32": "int",
    "int16": "short int",
    "int8": "signed char",
    "uint8": "unsigned char",
    "bool": "bool",
}


def _window_type_error(fn: str, args: tuple, kwargs: dict) -> GradcliError:
    got = [typename(a) for a in args] + [f"{k}={typename(v)}" for k, v in kwargs.items()]
    params = ["int window_length", "bool periodic"] + [f"float {n}" for n in _WINDOW_EXTRA[fn]]
    lines = "".join(f" * ({', '.join(params[:k])}, {_KW}\n" for k in range(1, len(params) + 1))
    return GradcliError(
        f"{fn}() received an invalid combination of arguments - got ({', '.join(got)}), but "
        f"expected one of:\n{lines}",
        hint=f"torch.{fn}(N, periodic, ...): the shape parameters follow periodic",
    ).mirror("TypeError")


def _window_args(fn: str, args: tuple, kwargs: dict) -> tuple:
    """(N, periodic, extras, dtype, requires_grad) from PyTorch's overloads: the shape
    parameters (alpha, beta) only after periodic, the rest keyword-only."""
    names = ("window_length", "periodic", *_WINDOW_EXTRA[fn])
    keywords = {"dtype", "layout", "device", "pin_memory", "requires_grad"}
    given = dict(zip(names, args))
    if len(args) > len(names) or set(kwargs) - set(names) - keywords:
        raise _window_type_error(fn, args, kwargs)
    for k in names:
        if k in kwargs:
            if k in given:
                raise _window_type_error(fn, args, kwargs)
            given[k] = kwargs[k]
    if "window_length" not in given:
        raise _window_type_error(fn, args, kwargs)
    extras = [given[n] for n in names[2:] if n in given]
    if extras and "periodic" not in given:
        raise _window_type_error(fn, args, kwargs)
    if names[2:] and len(extras) != sum(n in given for n in names[2:]):
        raise _window_type_error(fn, args, kwargs)
    n = given["window_length"]
    if not isinstance(n, int) or isinstance(n, bool):
        raise GradcliError(
            f"{fn}(): argument 'window_length' (position 1) must be int, not {typename(n)}"
        ).mirror("TypeError")
    periodic = given.get("periodic", True)
    if not isinstance(periodic, bool):
        raise _window_type_error(fn, args, kwargs)
    for v in extras:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise _window_type_error(fn, args, kwargs)
    shape = {k: float(given[k]) for k in names[2:] if k in given}
    dtype = kwargs.get("dtype")
    dt = Settings.default_dtype if dtype is None else D.check_dtype(dtype, fn=fn)
    if dt.kind != "f":
        raise GradcliError(
            f"{fn} expects floating point dtypes, got: TensorOptions(dtype="
            f"{_CPP_NAMES.get(dt.name, dt.name)}, device=cpu, layout=Strided (default), "
            "requires_grad=false (default), pinned_memory=false, memory_format=(nullopt))"
        )
    if n < 0:
        raise GradcliError(f"{fn} requires non-negative window_length, got window_length={n}")
    A.size_check((n + 1,), f"{fn}'s length")
    return n, periodic, shape, dt, bool(kwargs.get("requires_grad", False))


def _window(fn: str, make: Any) -> Any:
    """A window function: N samples (N + 1 made and the last dropped when periodic), computed
    by ATen's composition in the dtype (`make(arange(N), N) -> Tensor`), a leaf."""

    def window(*args: Any, **kwargs: Any) -> Tensor:
        n, periodic, shape, dt, requires_grad = _window_args(fn, args, kwargs)
        if n <= 1:
            out = np.ones(n, dt)
        else:
            m = n + 1 if periodic else n
            with no_grad():
                w = make(Tensor(np.arange(m, dtype=dt)), m, **shape)
            out = np.ascontiguousarray(w.data[:n])
        return Tensor(out, requires_grad=requires_grad)

    window.__name__ = fn
    return window


def _hamming(x: Tensor, m: int, alpha: float = 0.54, beta: float = 0.46) -> Tensor:
    # window.mul_(2 pi / (m - 1)).cos_().mul_(-beta).add_(alpha)
    return A.add_op(A.mul_op(A.cos(A.mul_op(x, math.pi * 2.0 / (m - 1))), -beta), alpha)


def _hann(x: Tensor, m: int) -> Tensor:
    return _hamming(x, m, 0.5, 0.5)


def _blackman(x: Tensor, m: int) -> Tensor:
    # w = arange * pi / (m - 1); cos(4 w) * 0.08 - cos(2 w) * 0.5 + 0.42
    w = A.mul_op(x, math.pi / (m - 1))
    a = A.mul_op(A.cos(A.mul_op(w, 4)), 0.08)
    b = A.mul_op(A.cos(A.mul_op(w, 2)), 0.5)
    return A.add_op(A.sub_op(a, b), 0.42)


def _bartlett(x: Tensor, m: int) -> Tensor:
    # arange * 2 / (m - 1), its second half (from ((m - 1) >> 1) + 1) turned into 2 - w
    w = A.mul_op(x, 2.0 / (m - 1))
    half = ((m - 1) >> 1) + 1
    data = np.array(w.data)
    data[half:] = A.add_op(A.mul_op(Tensor(data[half:]), -1), 2).data
    return Tensor(data)


def _kaiser(x: Tensor, m: int, beta: float = 12.0) -> Tensor:
    """ATen's kaiser_window kernel, element by element in the dtype: i0(beta * sqrt(|1 -
    ((k - alpha) / alpha) ** 2|)) / i0(beta), alpha = (m - 1) / 2, with its contractions
    (`1 - t * t` fused, as the pow(t, 2) GCC turns into a product) and ATen's calc_i0."""
    from ..core.specfun import calc_i0, fma

    k = x.data
    dt = k.dtype.type
    alpha = dt((m - 1) / 2.0)
    below = calc_i0(np.asarray([beta], k.dtype))[0]
    out = np.empty_like(k)
    step = 1 << 15
    for start in range(0, k.size, step):  # in pieces: the time limit checked between them
        hooks.observer.tick()
        t = (k[start : start + step] - alpha) / alpha
        inner = fma(-t, t, np.ones_like(t))
        out[start : start + step] = calc_i0(dt(beta) * np.sqrt(np.abs(inner))) / below
    return Tensor(out)


hann_window = _window("hann_window", _hann)
hamming_window = _window("hamming_window", _hamming)
blackman_window = _window("blackman_window", _blackman)
bartlett_window = _window("bartlett_window", _bartlett)
kaiser_window = _window("kaiser_window", _kaiser)


NAMES = declare(
    ("hann_window", "torch", hann_window, ""),
    ("hamming_window", "torch", hamming_window, ""),
    ("blackman_window", "torch", blackman_window, ""),
    ("bartlett_window", "torch", bartlett_window, ""),
    ("kaiser_window", "torch", kaiser_window, ""),
    ("tensor_split", "torch Tensor", tensor_split, "composition of index"),
    ("movedim moveaxis", "torch Tensor", movedim, "permute"),
    ("unflatten", "torch Tensor", unflatten, "reshape"),
    ("select", "torch Tensor", select, "index"),
    ("argsort", "torch Tensor", argsort, ""),
    ("msort", "torch Tensor", msort, "composition of index"),
    ("kthvalue", "torch Tensor", kthvalue, "composition of index reshape"),
    ("aminmax", "torch Tensor", aminmax, "composition of max min"),
    ("inner", "torch Tensor", inner, "composition of matmul mul permute reshape"),
    ("lerp", "torch Tensor", lerp, "composition of lerp_tensor times_scalar add"),
    ("addcmul", "torch", addcmul, "composition of addcmul add astype mul"),
    (
        "addcmul",
        "Tensor",
        _addc_method(_addcmul, "addcmul"),
        "composition of addcmul add astype mul",
    ),
    (
        "addcmul_",
        "Tensor",
        F._method_(_addc_method(_addcmul, "addcmul_"), "addcmul"),
        "composition of addcmul add astype mul",
    ),
    ("addcdiv", "torch", addcdiv, "composition of addcdiv add astype div mul"),
    (
        "addcdiv",
        "Tensor",
        _addc_method(_addcdiv, "addcdiv"),
        "composition of addcdiv add astype div mul",
    ),
    (
        "addcdiv_",
        "Tensor",
        F._method_(_addc_method(_addcdiv, "addcdiv_"), "addcdiv"),
        "composition of addcdiv add astype div mul",
    ),
    ("hypot", "torch Tensor", hypot, "hypot"),
    ("bitwise_and", "torch Tensor", bitwise_and, ""),
    ("bitwise_or", "torch Tensor", bitwise_or, ""),
    ("bitwise_xor", "torch Tensor", bitwise_xor, ""),
    ("gcd", "torch Tensor", gcd, ""),
    ("lcm", "torch Tensor", lcm, ""),
    ("bitwise_not", "torch Tensor", bitwise_not, ""),
    ("bitwise_left_shift", "torch Tensor", bitwise_left_shift, ""),
    ("bitwise_right_shift", "torch Tensor", bitwise_right_shift, ""),
    ("logical_and", "torch Tensor", logical_and, ""),
    ("logical_or", "torch Tensor", logical_or, ""),
    ("logical_xor", "torch Tensor", logical_xor, ""),
    ("logical_not", "torch Tensor", logical_not, ""),
    ("nonzero", "torch Tensor", nonzero, ""),
    ("nonzero_static", "torch Tensor", nonzero_static, ""),
    ("argwhere", "torch Tensor", argwhere, ""),
    ("count_nonzero", "torch Tensor", count_nonzero, ""),
    ("hash_tensor", "torch Tensor", hash_tensor, ""),
    ("bincount", "torch Tensor", bincount, "bincount"),
    ("unique", "torch Tensor", unique, "unique"),
    ("unique_consecutive", "torch Tensor", unique_consecutive, "unique"),
    ("isin", "torch Tensor", isin, ""),
    ("histc", "torch Tensor", histc, ""),
    ("nansum", "torch Tensor", nansum, "nansum"),
    ("nanmean", "torch Tensor", nanmean, "composition of div nansum"),
    ("hstack", "torch", hstack, "cat"),
    ("vstack row_stack", "torch", vstack, "cat"),
    ("dstack", "torch", dstack, "composition of cat reshape"),
    ("column_stack", "torch", column_stack, "cat"),
    ("atleast_1d", "torch", atleast_1d, "reshape"),
    ("atleast_2d", "torch", atleast_2d, "reshape"),
    ("atleast_3d", "torch", atleast_3d, "reshape"),
    ("broadcast_shapes", "torch", broadcast_shapes, ""),
    ("broadcast_tensors", "torch", broadcast_tensors, "expand"),
    ("meshgrid", "torch", meshgrid, "composition of reshape expand"),
    ("can_cast", "torch", can_cast, ""),
    ("finfo", "torch", finfo, ""),
    ("iinfo", "torch", iinfo, ""),
    ("element_size", "Tensor", element_size, ""),
    ("positive", "torch Tensor", positive, ""),
    ("deg2rad", "torch Tensor", deg2rad, "mul"),
    ("rad2deg", "torch Tensor", rad2deg, "mul"),
    ("signbit", "torch Tensor", signbit, ""),
    ("isposinf", "torch Tensor", isposinf, ""),
    ("isneginf", "torch Tensor", isneginf, ""),
    ("fmax", "torch Tensor", fmax, "fmax where"),
    ("fmin", "torch Tensor", fmin, "fmin where"),
    ("is_nonzero", "torch Tensor", is_nonzero, ""),
    ("is_same_size", "torch Tensor", is_same_size, ""),
    ("get_device", "Tensor", get_device, ""),
    ("scalar_tensor", "torch", scalar_tensor, ""),
    ("asarray", "torch", asarray, ""),
    ("unravel_index", "torch", unravel_index, ""),
    ("storage_offset", "Tensor", storage_offset, ""),
    ("hsplit", "torch Tensor", hsplit, "composition of index"),
    ("vsplit", "torch Tensor", vsplit, "composition of index"),
    ("dsplit", "torch Tensor", dsplit, "composition of index"),
    ("diagflat", "torch Tensor", diagflat, "composition of cat index reshape"),
    ("vdot", "torch Tensor", vdot, "matmul"),
    (
        "sum_to_size",
        "Tensor",
        C.sizes_required(sum_to_size, "sum_to_size", "size"),
        "composition of sum reshape",
    ),
    ("data_ptr", "Tensor", data_ptr, ""),
    ("untyped_storage", "Tensor", untyped_storage, ""),
    ("storage", "Tensor", storage, ""),
)
