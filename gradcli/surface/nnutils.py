"""`torch.nn.utils`: gradient clipping (`clip_grad_norm_`, `clip_grad_value_`) and the
conversions between parameters and one vector, computed as PyTorch computes them (the norm of
the norms; the clip coefficient max_norm / (norm + 1e-6) as a reciprocal times max_norm)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..base.errors import GradcliError, NotSupported
from ..core import hooks
from ..core.sparse import SparseCOO
from ..core.tensor import Tensor, no_grad, typename
from . import functional as F


def _params(parameters: Any, fn: str) -> list[Tensor]:
    if isinstance(parameters, Tensor):
        return [parameters]
    try:
        items = list(parameters)
    except TypeError:
        # PyTorch takes tuple(parameters): a module passed itself is Python's refusal
        raise GradcliError(
            f"'{typename(parameters)}' object is not iterable",
            hint=f"{fn}(model.parameters(), ...): the parameters, not the module",
        ).mirror("TypeError") from None
    for p in items:
        if type(p) is SparseCOO or type(getattr(p, "grad", None)) is SparseCOO:
            raise NotSupported(
                f"{fn}() of a sparse gradient (an embedding's, sparse=True) is not supported "
                "by gradcli (PyTorch's foreach norm refuses it too)",
                hint="write sparse=False for a dense gradient, or clip p.grad.to_dense()",
            )
        if not isinstance(p, Tensor):
            raise GradcliError(
                f"{fn}(): expected Tensors, got {typename(p)}",
                hint=f"{fn}(model.parameters(), ...)",
            ).mirror("TypeError")
    return items


def _number(v: Any, what: str, fn: str) -> float:
    if isinstance(v, Tensor) and v.data.size == 1:
        return float(v.data.reshape(()))
    if isinstance(v, (np.integer, np.floating)):
        v = float(v)  # (a NumPy number, as PyTorch's float() of it)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise GradcliError(f"{fn}(): {what} must be a number, not {typename(v)}").mirror(
            "TypeError"
        )
    return float(v)


def _norm_type(v: Any, fn: str) -> float:
    if isinstance(v, str):
        if v == "inf":
            return math.inf
        raise GradcliError(f"{fn}(): norm_type must be a number or 'inf', not {v!r}")
    return _number(v, "norm_type", fn)


def get_total_norm(
    tensors: Any, norm_type: Any = 2.0, error_if_nonfinite: bool = False, foreach: Any = None
) -> Tensor:
    """`torch.nn.utils.get_total_norm`: the norm of the tensors' norms (each norm in its own
    dtype, the norms promoted together), as clip_grad_norm_ measures the gradients."""
    fn = "get_total_norm"
    ts = _params(tensors, fn)
    p = _norm_type(norm_type, fn)
    if not ts:
        return Tensor(np.zeros((), dtype=np.float32))
    with no_grad():
        norms = [F.norm(g, p) for g in ts]
        dt = np.result_type(*[n.dtype for n in norms])
        total = F.norm(F.stack([F.to_dtype(n, dt) for n in norms]), p)
    if error_if_nonfinite and not np.isfinite(total.data):
        raise GradcliError(
            f"The total norm of order {p} for gradients from `parameters` is non-finite, so "
            "it cannot be clipped. To disable this error and scale the gradients by the "
            "non-finite norm anyway, set `error_if_nonfinite=False`"
        )
    return total


def clip_grads_with_norm_(
    parameters: Any, max_norm: Any, total_norm: Any, foreach: Any = None
) -> None:
    """`torch.nn.utils.clip_grads_with_norm_`: the gradients times min(1, max_norm /
    (total_norm + 1e-6)), the coefficient as PyTorch's (a reciprocal, times max_norm)."""
    fn = "clip_grads_with_norm_"
    grads = [p.grad for p in _params(parameters, fn) if p.grad is not None]
    mx = _number(max_norm, "max_norm", fn)
    if not grads:
        return None
    t = (
        total_norm.data
        if isinstance(total_norm, Tensor)
        else np.asarray(_number(total_norm, "total_norm", fn), dtype=np.float32)
    )
    with no_grad():
        ft = t.dtype.type
        # float16: each step in float, rounded to half (ATen's opmath; the numbers as floats)
        op = np.float32 if t.dtype == np.float16 else ft
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            s = ft(op(t) + op(1e-6))
            coef = ft(op(ft(op(1) / op(s))) * op(mx))
        coef = min(coef, ft(1.0)) if not np.isnan(coef) else coef
        for g in grads:
            F.INPLACE["mul_"](g, Tensor(np.asarray(coef, dtype=t.dtype).astype(g.dtype)))
    return None


def clip_grad_norm_(
    parameters: Any,
    max_norm: Any,
    norm_type: Any = 2.0,
    error_if_nonfinite: bool = False,
    foreach: Any = None,
) -> Tensor:
    fn = "clip_grad_norm_"
    params = _params(parameters, fn)
    grads = [p.grad for p in params if p.grad is not None]
    _number(max_norm, "max_norm", fn)
    total = get_total_norm(grads, norm_type, error_if_nonfinite)
    clip_grads_with_norm_(params, max_norm, total)
    return total


def clip_grad_value_(parameters: Any, clip_value: Any, foreach: Any = None) -> None:
    fn = "clip_grad_value_"
    v = _number(clip_value, "clip_value", fn)
    grads = [p.grad for p in _params(parameters, fn) if p.grad is not None]
    if not grads:
        # PyTorch groups the gradients by device first, which refuses an empty list (a clip
        # called before backward, or after zero_grad() set them to None)
        raise GradcliError(
            "Expected !nested_tensorlist[0].empty() to be true, but got false.  (Could this "
            "error message be improved?  If so, please report an enhancement request to "
            "PyTorch.)",
            hint="no parameter has a gradient yet: clip after loss.backward(), before step()",
        ).mirror("RuntimeError")
    with no_grad():
        for g in grads:
            F.INPLACE["clamp_"](g, -v, v)
    return None


def parameters_to_vector(parameters: Any) -> Tensor:
    ps = _params(parameters, "parameters_to_vector")
    if not ps:
        raise GradcliError("torch.cat(): expected a non-empty list of Tensors")
    return F.cat([F.reshape(q, (-1,)) for q in ps])


def vector_to_parameters(vec: Any, parameters: Any) -> None:
    if not isinstance(vec, Tensor):
        raise GradcliError(f"expected torch.Tensor, but got: {typename(vec)}").mirror("TypeError")
    ps = _params(parameters, "vector_to_parameters")
    total = sum(q.numel() for q in ps)
    if vec.ndim != 1 or vec.numel() != total:
        raise GradcliError(
            f"the vector has {vec.numel()} elements, the parameters {total}",
            hint="a vector from parameters_to_vector(model.parameters())",
        )
    start = 0
    with no_grad():
        for q in ps:
            n = q.numel()
            F.INPLACE["copy_"](q, F.reshape(vec.detach()[start : start + n], q.shape))
            start += n


def pad_sequence(
    sequences: Any, batch_first: Any = False, padding_value: Any = 0.0, padding_side: Any = "right"
) -> Tensor:
    """`nn.utils.rnn.pad_sequence`: sequences of different lengths (along their first dim) in
    one tensor filled with `padding_value`, each copied in place into its slot (CopySlices, so
    the gradient of each goes back to it), in the first sequence's dtype."""
    from ..ops import arithmetic as A
    from .composite import unbind
    from .constructors import full
    from .indexing import setitem

    if isinstance(sequences, Tensor):
        seqs = list(unbind(sequences, 0)) if sequences.ndim else []
    elif isinstance(sequences, (list, tuple)):
        seqs = [A.tensor_arg(s, "sequences") for s in sequences]
    else:
        raise GradcliError(
            "pad_sequence(): argument 'sequences' must be a list of tensors, not "
            + typename(sequences)
        ).mirror("TypeError")
    if padding_side not in ("left", "right"):
        raise GradcliError(
            f"Expected padding_side to be one of left or right, but got {padding_side}."
        )
    if not seqs:
        raise GradcliError("received an empty list of sequences")
    if any(s.ndim == 0 for s in seqs):
        raise GradcliError("ArrayRef: invalid slice, N = 1; size = 0")
    longest = max(s.shape[0] for s in seqs)
    trailing = seqs[0].shape[1:]
    shape = (len(seqs), longest, *trailing) if batch_first else (longest, len(seqs), *trailing)
    out = full(shape, padding_value, dtype=seqs[0].dtype)
    for s in seqs:  # each slot takes its sequence by a broadcasting copy
        for d, (want, got) in enumerate(zip(reversed(trailing), reversed(s.shape[1:]))):
            if got not in (want, 1):
                raise GradcliError(
                    f"The size of tensor a ({want}) must match the size of tensor b ({got}) at "
                    f"non-singleton dimension {len(trailing) - d}"
                )
    for i, s in enumerate(seqs):
        hooks.observer.tick()  # a copy per sequence: the clock checked between them
        n = s.shape[0]
        start = longest - n if padding_side == "left" else 0
        rows = slice(start, start + n)
        setitem(out, (i, rows) if batch_first else (rows, i), s)
    return out


def clip_grad_norm(
    parameters: Any,
    max_norm: Any,
    norm_type: Any = 2.0,
    error_if_nonfinite: bool = False,
    foreach: Any = None,
) -> Tensor:
    """The deprecated name: `clip_grad_norm_`, with PyTorch's deprecation warning."""
    hooks.warn(
        "`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
        "`torch.nn.utils.clip_grad_norm_`.",
        "write clip_grad_norm_ (the same clipping, in place)",
    )
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


# `torch.nn.utils.rnn` (the padding of variable-length sequences)
RNN = {"pad_sequence": pad_sequence}


# `torch.nn.utils.clip_grad`, the module the clipping functions live in.
CLIP_GRAD = {
    "get_total_norm": get_total_norm,
    "clip_grads_with_norm_": clip_grads_with_norm_,
    "clip_grad_norm_": clip_grad_norm_,
    "clip_grad_norm": clip_grad_norm,
    "clip_grad_value_": clip_grad_value_,
}


def _weight_memory_format(d: int) -> Any:
    """`torch.nn.utils.convert_conv{d}d_weight_memory_format(module, memory_format)`: the
    weight of every Conv{d}d and ConvTranspose{d}d in the module's tree (itself included)
    laid out in the format, as PyTorch's clone then resize_ (the parameter kept, its values
    and gradient untouched); the module itself returned."""

    def convert(module: Any, memory_format: Any) -> Any:
        from ..core.layout import in_format
        from .args import memory_format_arg
        from .layers import Conv
        from .nn import Module

        if not isinstance(module, Module):
            raise GradcliError(f"'{typename(module)}' object has no attribute 'children'").mirror(
                "AttributeError"
            )
        for m in module.module_list():
            w = m._parameters.get("weight") if isinstance(m, Conv) and m.d == d else None
            if w is None:
                continue
            fmt = memory_format_arg(memory_format, "clone", w.shape)
            if fmt == "preserve":  # (resize_ takes no preserve_format)
                raise GradcliError("Unsupported memory formatPreserve").mirror("RuntimeError")
            w.data = in_format(w.data, fmt, copy=True)
        return module

    convert.__name__ = f"convert_conv{d}d_weight_memory_format"
    return convert


FUNCTIONS = {
    "convert_conv2d_weight_memory_format": _weight_memory_format(2),
    "convert_conv3d_weight_memory_format": _weight_memory_format(3),
    "get_total_norm": get_total_norm,
    "clip_grads_with_norm_": clip_grads_with_norm_,
    "clip_grad_norm_": clip_grad_norm_,
    "clip_grad_norm": clip_grad_norm,
    "clip_grad_value_": clip_grad_value_,
    "parameters_to_vector": parameters_to_vector,
    "vector_to_parameters": vector_to_parameters,
}
