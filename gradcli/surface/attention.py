"""Attention: `F.scaled_dot_product_attention`, `nn.MultiheadAttention` (and
`F.multi_head_attention_forward`), the Transformer layers built on them and
`nn.Transformer.generate_square_subsequent_mask`.

Each is composed of gradcli's recorded operations (matmul, mul, add, exp, sum, softmax,
dropout, the shape operations...), so backward, the Jacobian commands and the finite-difference
checks need nothing new. The composition follows what PyTorch 2.13 runs on the CPU:

* `scaled_dot_product_attention` picks one of two kernels, as ATen's CPU selection does. The
  fused "flash" kernel (its node is ScaledDotProductFlashAttentionForCpuBackward0) runs 4-D
  query/key/value of one dtype with equal head sizes, batch and head counts (or grouped query
  heads with enable_gqa), no dropout, a 2-D or 4-D mask that does not require grad. It computes
  s = q @ k^T * scale (+ mask), then exp(s - max) and its row sum, and divides the product of
  those weights with v by the sum at the end (one key block: PyTorch's blocks are 512 keys).
  Everything else takes the "math" path: q and k^T each times sqrt(scale), their product, the
  mask added, a softmax (a row that is all -inf gives zeros, as ATen's _safe_softmax), dropout
  with the training generator (F.dropout's draws), the product with v.
* `multi_head_attention_forward` follows torch.nn.functional's: the packed in-projection (one
  linear for self-attention; q and k/v apart when key is value; three otherwise), the views
  to (batch * heads, length, head_dim), key_padding_mask merged into attn_mask, then with
  need_weights the explicit weights (q * sqrt(1 / head_dim), baddbmm/bmm, softmax, dropout,
  bmm; the weights averaged over heads) or without them `scaled_dot_product_attention`; the
  out-projection.

In float32 the fused kernel's steps carry its bits (`ops.flash32`), and a plain backward pass
takes the kernel's backward for its gradients (`_kernel_backward`: PyTorch's bits; the composed
nodes compute the others: float64, create_graph, hooks on the node). PyTorch's eval-mode "fast
path" (torch._native_multi_head_attention: no grad, batch_first, self-attention, an even number
of heads) computes the same formula with its own kernels; gradcli takes the ordinary path there
(float32 values may differ from PyTorch's in the last bits, as the README says).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError
from ..core.dtypes import cpp_type_name
from ..core.tensor import Tensor, typename
from ..ops import arithmetic as A
from . import composite as CO
from . import functional as F
from .declare import declare
from .nn import (
    Linear,
    Module,
    ModuleEntries,
    _constructor,
    _draw_dtype,
    _weights,
    reset_dtype,
    rewrite,
)
from .sampling import R

FLASH = "ScaledDotProductFlashAttentionForCpuBackward0"


def _err(message: str, kind: str | None = "RuntimeError") -> GradcliError:
    return GradcliError(message).pytorch().mirror(kind)


def _tensor(v: Any, what: str) -> Tensor:
    if not isinstance(v, Tensor):
        raise _err(
            f"scaled_dot_product_attention(): argument '{what}' must be Tensor, not {typename(v)}",
            "TypeError",
        )
    return v


def _bool(v: Any, what: str, fn: str = "scaled_dot_product_attention") -> bool:
    if not isinstance(v, (bool, np.bool_)):
        raise _err(f"{fn}(): argument '{what}' must be bool, not {typename(v)}", "TypeError")
    return bool(v)


def _float(v: Any, what: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise _err(
            f"scaled_dot_product_attention(): argument '{what}' must be float, not {typename(v)}",
            "TypeError",
        )
    return float(v)


def _constant(values: np.ndarray) -> Tensor:
    return Tensor(np.ascontiguousarray(values))


def _bool_mask_as_float(mask: Tensor, dtype: np.dtype, masked_when: bool) -> Tensor:
    """A bool mask as the additive float mask: -inf where `mask == masked_when`, else 0."""
    out = np.where(mask.data == masked_when, -np.inf, 0.0).astype(dtype)
    return _constant(out)


# --- scaled_dot_product_attention ----------------------------------------------------------


def _check_sdpa(q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None, p: float) -> None:
    """ATen's checks of the inputs (validate_sdpa_input), in its order and words."""
    if not (q.dtype == k.dtype == v.dtype):
        raise _err(
            "Expected query, key, and value to have the same dtype, but got query.dtype: "
            f"{cpp_type_name(q.dtype)} key.dtype: {cpp_type_name(k.dtype)} and value.dtype: "
            f"{cpp_type_name(v.dtype)} instead."
        )
    if q.ndim < 2 or k.ndim < 2 or v.ndim < 2:
        raise _err(
            "Expected query, key, and value to all be  at least 2 dimensional, but got "
            f"query.dim: {q.ndim} key.dim: {k.ndim} and value.dim: {v.ndim} instead."
        )
    if q.dtype.kind != "f":
        raise _err(f"expected scalar type Float but found {_scalar(q.dtype)}")
    if mask is not None:
        if mask.dtype != np.bool_ and mask.dtype != q.dtype and mask.dtype.kind != "f":
            raise _err(
                "Expected attn_mask dtype to be bool or float or to match query dtype, but got "
                f"attn_mask.dtype: {cpp_type_name(mask.dtype)} and  query.dtype: "
                f"{cpp_type_name(q.dtype)} instead."
            )
        if mask.ndim < 2:
            raise _err(
                "Dimension out of range (expected to be in range of [-1, 0], but got -2)",
                "IndexError",
            )
    if not 0.0 <= p <= 1.0:
        raise _err(f"dropout probability has to be between 0 and 1, but got {p}")


def _scalar(dt: np.dtype) -> str:
    from ..core.dtypes import scalar_type_name

    return scalar_type_name(dt)


# PyTorch's global switches of the backends F.scaled_dot_product_attention may choose
# (torch.nn.attention.sdpa_kernel, torch.backends.cuda.enable_flash_sdp and its kin): all on
# when a run starts (`reset_backends`). On the CPU only "flash" and "math" take part.
SDP_BACKENDS = ("cudnn", "flash", "mem_efficient", "math", "overrideable")
SDP_ENABLED = dict.fromkeys(SDP_BACKENDS, True)


def reset_backends() -> None:
    SDP_ENABLED.update(dict.fromkeys(SDP_BACKENDS, True))


def _sizes(t: Tensor) -> str:
    return "[" + ", ".join(str(n) for n in t.shape) + "]"


def _flash_refusal(
    q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None, p: float, gqa: bool, bool_mask: bool
) -> str | None:
    """Why ATen's CPU selection does not run the fused kernel (sdp_utils_cpp's
    use_flash_attention_cpp, its checks in order: the warning each gives when PyTorch is asked
    for its reasons, "" where it gives none), or None when it runs it."""
    if not SDP_ENABLED["flash"]:
        return "Flash attention has been runtime disabled."
    if p > 0.0:
        return "Both fused kernels do not support non-zero dropout."
    if not (q.ndim == k.ndim == v.ndim == 4):
        return (
            "All fused kernels requires query, key and value to be 4 dimensional, but got "
            f"Query dim: {q.ndim}, Key dim: {k.ndim}, Value dim: {v.ndim} instead."
        )
    broadcast = (
        " instead. To broadcast dense inputs, try using unsqueeze and expand_to before passing "
        "them into the kernel."
    )
    if not (q.shape[0] == k.shape[0] == v.shape[0]):
        return (
            "For dense inputs, both fused kernels require query, key and value to have the same "
            f"batch_size. Query.sizes(): {_sizes(q)}, Key.sizes(): {_sizes(k)}, Value.sizes(): "
            f"{_sizes(v)}{broadcast}"
        )
    hq, hk, hv = q.shape[1], k.shape[1], v.shape[1]
    if gqa:
        if hk != hv:
            return (
                "Both fused kernels require key and value to have the same num_heads and "
                f"batch_size but got: Key sizes: {_sizes(k)}, Value sizes: {_sizes(v)}, Query "
                f"sizes: {_sizes(q)} instead."
            )
        if hk == 0 or hq % hk:
            return (
                "FlashAttentionV2 only supports grouped query attention, where the number of "
                "heads in key/value must divide number of heads in query.Got input Key sizes(): "
                f"{hk}, Value sizes(): {hv}, Query sizes(): {hq} instead."
            )
    elif not hq == hk == hv:
        return (
            "For dense input, both fused kernels require query, key and value to have the same "
            f"num_heads. Query.sizes(): {_sizes(q)}, Key sizes(): {_sizes(k)}, Value sizes(): "
            f"{_sizes(v)}{broadcast}"
        )
    if mask is not None:
        if mask.requires_grad or mask.ndim == 0:
            return ""
        if mask.shape[-2] not in (1, q.shape[2]) or mask.shape[-1] not in (1, k.shape[2]):
            return ""
        if not (
            mask.ndim == 2
            or mask.ndim == 4
            and mask.shape[0] in (1, q.shape[0])
            and mask.shape[1] in (1, hq)
        ):
            return (
                "Please use the following attn mask shapes: 2d - ({Q_seq_len, 1}  x "
                "{KV_seq_len, 1}); 4d - ({Batch, 1} x {Num_heads, 1} x {Q_seq_len, 1}  x "
                "{KV_seq_len, 1})"
            )
    if not (q.shape[-1] == k.shape[-1] == v.shape[-1]):
        return (
            "Flash attention requires q,k,v to have the same last dimension. Got Query.size(-1): "
            f"{q.shape[-1]}, Key.size(-1): {k.shape[-1]}, Value.size(-1): {v.shape[-1]} instead."
        )
    if q.shape[2] == 0 or k.shape[2] == 0:
        return "All fused kernels do not support zero seq_len_q or seq_len_kv."
    if q.shape[-1] == 0 or 0 in (q.shape[0], q.shape[1]):
        return ""  # (nothing to compute: the math path's empty result)
    from ..core.layout import torch_strides

    strides = [torch_strides(t.data)[-1] for t in (q, k, v)]
    last = None if mask is None or bool_mask else torch_strides(mask.data)[-1]
    if strides != [1, 1, 1] or last not in (None, 1):
        tail = "" if mask is None else f", Attn_mask.stride(-1): {last}"
        return (
            "All fused kernels require the last dimension of the input to have stride 1. Got "
            f"Query.stride(-1): {strides[0]}, Key.stride(-1): {strides[1]}, Value.stride(-1): "
            f"{strides[2]}{tail}"  # (2.13's words end there)
        )
    return None


def _uses_flash(
    q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None, p: float, gqa: bool, bool_mask: bool
) -> bool:
    """ATen's CPU choice of a backend (sdp_utils_cpp: select_sdp_backend_cpp): the fused
    kernel where it can run, else the math path while it is enabled; PyTorch's errors (and the
    reason it warns of) when no enabled backend can run."""
    if not SDP_ENABLED["math"] and not SDP_ENABLED["flash"]:
        raise _err(
            "No viable backend for scaled_dot_product_attention was found. This is likely due "
            "to turning off both the math kernel and the fused kernels."
        )
    reason = _flash_refusal(q, k, v, mask, p, gqa, bool_mask)
    if reason is None:
        return True
    if SDP_ENABLED["math"]:
        return False
    from ..core import hooks

    hooks.warn("Flash attention kernel not used because:")
    if reason:
        hooks.warn(reason)
    raise _err("No available kernel.  Aborting execution.")


def _grouped(q: Tensor, k: Tensor, v: Tensor, gqa: bool) -> tuple[Tensor, Tensor]:
    """Grouped query attention: each key/value head repeated for its group of query heads
    (ATen's pre_process_group_query_attention_input: repeat_interleave on dim -3)."""
    if not gqa or q.ndim < 3 or q.shape[-3] == k.shape[-3]:
        return k, v
    from .rearrange import repeat_interleave

    hq, hk, hv = q.shape[-3], k.shape[-3], v.shape[-3]
    if hk == 0 or hv == 0 or hq % hk or hq % hv:
        raise _err("Number of heads in key and value must divide the number of heads in query")
    return repeat_interleave(k, hq // hk, -3), repeat_interleave(v, hq // hv, -3)


def _causal(lq: int, lk: int, dtype: np.dtype) -> Tensor:
    keep = np.tril(np.ones((lq, lk), bool))
    return _bool_mask_as_float(Tensor(keep), dtype, False)


def _size_check(q: Tensor, k: Tensor) -> None:
    """The attention weights (batch..., L, S) against the element limit, before any work."""
    n = max(q.ndim, k.ndim) - 2
    a = (1,) * (n - q.ndim + 2) + tuple(q.shape[:-2])
    b = (1,) * (n - k.ndim + 2) + tuple(k.shape[:-2])
    batch = tuple(max(x, y) for x, y in zip(a, b))
    A.size_check((*batch, q.shape[-2], k.shape[-2]), "the attention weights")


def _flash(
    q: Tensor,
    k: Tensor,
    v: Tensor,
    mask: Tensor | None,
    causal: bool,
    scale: float,
    given: tuple[Tensor, Tensor] | None = None,
) -> Tensor:
    """The CPU flash kernel's arithmetic with one key block: s = (q @ k^T) * scale (+ mask;
    with is_causal the keys after a query's position are -inf first), w = exp(s - rowmax(s)),
    out = (w @ v) * (1 / rowsum(w)); a row with every key masked gives zeros. In float32 the
    steps' values are the kernel's bits (`ops.flash32`), written into the recorded nodes, and a
    plain backward pass takes the kernel's gradients of q and the `given` key and value (before
    grouped heads were repeated) at once (`_kernel_backward`)."""
    from ..core.autograd import apply
    from ..ops import flash32 as FL
    from ..ops.elementwise import reciprocal

    exact = None
    if (
        q.dtype == np.float32
        and (mask is None or mask.dtype == np.float32)
        and FL.fits(q.shape, k.shape)
    ):
        exact = FL.flash32(
            q.data, k.data, v.data, None if mask is None else mask.data, causal, scale
        )
    kt = F.transpose(k, -2, -1)
    s = A.matmul(q, kt)
    if causal:
        # the kernel fills the product with -inf before scaling it (a negative scale makes
        # those +inf, and the rows NaN, as PyTorch's)
        s = A.add_t(s, _causal(q.shape[-2], k.shape[-2], q.dtype))
    s = A.mul_t(s, scale)
    if mask is not None:
        s = A.add_t(s, mask)
    _written(s, exact, 0)
    top = np.max(s.data, axis=-1, keepdims=True) if s.data.size else s.data[..., :1]
    dead = np.isneginf(top)
    if dead.any():
        top = np.where(dead, 0, top)
    w = _written(A.exp(A.sub_t(s, _constant(top.astype(s.dtype)))), exact, 1)
    total = _written(F.sum(w, -1, True), exact, 2)
    if dead.any():
        total = A.add_t(total, _constant(dead.astype(s.dtype)))
    out = A.mul_t(_written(A.matmul(w, v), exact, 3), apply(reciprocal, total))
    out = A.named(out, FLASH)
    if out.node is not None:
        kk, vv = given if given is not None else (k, v)
        _kernel_backward(out, q, kk, vv, mask, causal, scale, exact)
    return out


def _kernel_backward(
    out: Tensor,
    q: Tensor,
    k: Tensor,
    v: Tensor,
    mask: Tensor | None,
    causal: bool,
    scale: float,
    exact: tuple | None,
) -> None:
    """The fused kernel's backward as the rule of out's node in first-order passes
    (`SHORTCUTS`): first PyTorch's check of what its node saved (q, k, v, a float mask and out:
    a change in place since is its error), then in float32 (`exact`: the forward's steps were
    the kernel's) the kernel's gradients of q, k and v, PyTorch's bits
    (`ops.flash32.flash32_backward`); elsewhere the composed nodes compute."""
    from ..core.autograd import SHORTCUTS, _modified
    from ..core.tensor import counter
    from ..ops import flash32 as FL

    if exact is not None and not FL.backward_fits(q.shape):
        exact = None
    kept = np.array(out.data, copy=True) if exact is not None else None
    lse = FL.logsumexp(exact[0], exact[2]) if exact is not None else None
    m = None if mask is None else mask.data
    ts = (q, k, v)
    # what the node saves: q, k, v, the mask (the program's float one: a bool one was turned
    # into a new tensor) and out (its counter and shape: the rule must not keep out's node)
    kept_ts = (*ts, *(() if mask is None else (mask,)))
    counters = tuple(counter(t) for t in (*kept_ts, out))
    versions = tuple(c[0] for c in counters)
    saved = (*kept_ts, Tensor(np.broadcast_to(np.zeros((), out.dtype), out.shape)))
    names = tuple(None if t.node is None else t.node.name() for t in kept_ts) + (FLASH,)

    def rule(g: np.ndarray, first_order: bool) -> tuple | None:
        for t, c, then, name in zip(saved, counters, versions, names):
            if c[0] != then:
                raise _modified(t, name, c[0], then)
        if not first_order or exact is None or g.dtype != np.float32 or g.shape != out_shape:
            return None
        gq, gk, gv = FL.flash32_backward(q.data, k.data, v.data, m, causal, scale, kept, lse, g)
        return ts, (Tensor(gq), Tensor(gk), Tensor(gv))

    out_shape = out.shape
    SHORTCUTS[out.node] = rule


def _written(t: Tensor, exact: tuple | None, i: int) -> Tensor:
    """`t` with the kernel's values of step `i` (when they were computed)."""
    if exact is not None and t.data.flags.writeable and t.data.shape == exact[i].shape:
        t.data[...] = exact[i]
    return t


def _safe_softmax(s: Tensor) -> Tensor:
    """ATen's _safe_softmax on the last dim: a softmax whose rows of all -inf are zeros (and
    pass no gradient back: such a row is taken as zeros before the softmax too)."""
    dead = np.all(np.isneginf(s.data), axis=-1, keepdims=True) if s.data.size else None
    if dead is None or not dead.any():
        return F.softmax(s, -1)
    zero = _constant(np.zeros((), s.dtype))
    out = F.softmax(F.where(_constant(dead), zero, s), -1)
    return F.where(_constant(dead), zero, out)


def _math(
    q: Tensor,
    k: Tensor,
    v: Tensor,
    mask: Tensor | None,
    p: float,
    causal: bool,
    scale: float,
) -> Tensor:
    """ATen's _scaled_dot_product_attention_math."""
    root = math.sqrt(abs(scale))
    qs = A.mul_t(q, -root if scale < 0 else root)
    if causal:
        mask = _causal(q.shape[-2], k.shape[-2], q.dtype)
    attn = A.matmul(qs, A.mul_t(F.transpose(k, -2, -1), root))
    if mask is not None:
        attn = A.add_t(attn, mask)
    attn = _safe_softmax(attn)
    if p > 0.0:
        from .sampling import dropout

        attn = dropout(attn, p, True)
    return A.matmul(attn, v)


def scaled_dot_product_attention(
    query: Any,
    key: Any,
    value: Any,
    attn_mask: Any = None,
    dropout_p: Any = 0.0,
    is_causal: Any = False,
    scale: Any = None,
    enable_gqa: Any = False,
) -> Tensor:
    """`F.scaled_dot_product_attention`: softmax(q @ k^T * scale + mask) @ v, as PyTorch's CPU
    kernels compute it (see the module's docstring for which one runs)."""
    q, k, v = _tensor(query, "query"), _tensor(key, "key"), _tensor(value, "value")
    mask = None if attn_mask is None else _tensor(attn_mask, "attn_mask")
    p = _float(dropout_p, "dropout_p")
    causal = _bool(is_causal, "is_causal")
    gqa = _bool(enable_gqa, "enable_gqa")
    _check_sdpa(q, k, v, mask, p)
    if scale is None:
        factor = 1.0 / math.sqrt(q.shape[-1]) if q.shape[-1] else math.inf
    else:
        factor = _float(scale, "scale")
    _size_check(q, k)
    bool_mask = mask is not None and mask.dtype == np.bool_
    if bool_mask:
        mask = _bool_mask_as_float(mask, q.dtype, False)
    if _uses_flash(q, k, v, mask, p, gqa, bool_mask):
        kg, vg = _grouped(q, k, v, gqa)
        return _flash(q, kg, vg, mask, causal, factor, (k, v))
    if causal and mask is not None:
        raise _err(
            "_scaled_dot_product_attention: Explicit attn_mask should not be set when "
            "is_causal=True"
        )
    k, v = _grouped(q, k, v, gqa)
    if q.shape[-1] != k.shape[-1] and q.ndim > 2 and k.ndim > 2:
        # the batched product of the math path refuses it, in its words
        lead = max(math.prod(q.shape[:-2]), math.prod(k.shape[:-2]))
        raise _err(
            f"Expected size for first two dimensions of batch2 tensor to be: [{lead}, "
            f"{q.shape[-1]}] but got: [{lead}, {k.shape[-1]}]."
        )
    return _math(q, k, v, mask, p, causal, factor)


# --- multi-head attention ------------------------------------------------------------------


def _assert(cond: bool, message: str) -> None:
    if not cond:
        raise _err(message, "AssertionError")


def _shape_text(shape: tuple[int, ...]) -> str:
    return f"torch.Size([{', '.join(str(n) for n in shape)}])"


def _mha_shape_check(
    q: Tensor, k: Tensor, v: Tensor, kpm: Tensor | None, mask: Tensor | None, heads: int
) -> bool:
    """torch.nn.functional's _mha_shape_check: whether the input is batched."""
    if q.ndim == 3:
        _assert(
            k.ndim == 3 and v.ndim == 3,
            "For batched (3-D) `query`, expected `key` and `value` to be 3-D but found "
            f"{k.ndim}-D and {v.ndim}-D tensors respectively",
        )
        if kpm is not None:
            _assert(
                kpm.ndim == 2,
                "For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D "
                f"but found {kpm.ndim}-D tensor instead",
            )
        if mask is not None:
            _assert(
                mask.ndim in (2, 3),
                "For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but "
                f"found {mask.ndim}-D tensor instead",
            )
        return True
    if q.ndim == 2:
        _assert(
            k.ndim == 2 and v.ndim == 2,
            "For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found "
            f"{k.ndim}-D and {v.ndim}-D tensors respectively",
        )
        if kpm is not None:
            _assert(
                kpm.ndim == 1,
                "For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D "
                f"but found {kpm.ndim}-D tensor instead",
            )
        if mask is not None:
            _assert(
                mask.ndim in (2, 3),
                "For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but "
                f"found {mask.ndim}-D tensor instead",
            )
            if mask.ndim == 3:
                want = (heads, q.shape[0], k.shape[0])
                _assert(
                    mask.shape == want,
                    f"Expected `attn_mask` shape to be {want} but got {_shape_text(mask.shape)}",
                )
        return False
    raise _err(
        f"query should be unbatched 2D or batched 3D tensor but received {q.ndim}-D query tensor",
        "AssertionError",
    )


def _canonical_mask(
    mask: Any, name: str, other: Tensor | None, other_name: str, dtype: np.dtype, check: bool
) -> Tensor | None:
    """torch.nn.functional's _canonical_mask: a bool mask as 0 / -inf in the query's dtype."""
    if mask is None:
        return None
    if not isinstance(mask, Tensor):
        raise _err(f"'{typename(mask)}' object has no attribute 'dtype'", "AttributeError")
    if mask.dtype != np.bool_ and mask.dtype.kind != "f":
        raise _err(f"only bool and floating types of {name} are supported", "AssertionError")
    if check and other is not None and mask.dtype != other.dtype:
        from ..core import hooks

        hooks.warn(
            f"Support for mismatched {name} and {other_name} is deprecated. Use same type for "
            "both instead."
        )
    if mask.dtype == np.bool_:
        return _bool_mask_as_float(mask, dtype, True)
    return mask


def _linear(x: Tensor, w: Tensor, b: Tensor | None) -> Tensor:
    return F.linear_forward(x, w, b)


def _split_packed(proj: Tensor, parts: int, e: int) -> tuple[Tensor, ...]:
    """proj.unflatten(-1, (parts, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous(),
    then its first-axis items."""
    lead = proj.shape[:-1]
    x = F.view(proj, *lead, parts, e)
    x = F.unsqueeze(x, 0)
    x = F.transpose(x, 0, -2)
    x = F.squeeze(x, -2)
    from .predicates import contiguous

    x = contiguous(x)
    from .indexing import getitem

    return tuple(getitem(x, i) for i in range(parts))


def _in_projection_packed(
    q: Tensor, k: Tensor, v: Tensor, w: Tensor, b: Tensor | None
) -> tuple[Tensor, Tensor, Tensor]:
    e = q.shape[-1]
    if k is v:
        if q is k:
            return _split_packed(_linear(q, w, b), 3, e)  # type: ignore[return-value]
        w_q, w_kv = CO.split(w, [e, 2 * e])
        b_q, b_kv = (None, None) if b is None else CO.split(b, [e, 2 * e])
        kv = _split_packed(_linear(k, w_kv, b_kv), 2, e)
        return _linear(q, w_q, b_q), kv[0], kv[1]
    w_q, w_k, w_v = CO.chunk(w, 3)
    b_q, b_k, b_v = (None, None, None) if b is None else CO.chunk(b, 3)
    return _linear(q, w_q, b_q), _linear(k, w_k, b_k), _linear(v, w_v, b_v)


def _in_projection(
    q: Tensor, k: Tensor, v: Tensor, ws: tuple[Tensor, Tensor, Tensor], bs: tuple
) -> tuple[Tensor, Tensor, Tensor]:
    eq, ek, ev = q.shape[-1], k.shape[-1], v.shape[-1]
    for w, want, what in zip(ws, ((eq, eq), (eq, ek), (eq, ev)), ("query", "key", "value")):
        _assert(
            w.shape == want,
            f"expecting {what} weights shape of {want}, but got {_shape_text(w.shape)}",
        )
    return (
        _linear(q, ws[0], bs[0]),
        _linear(k, ws[1], bs[1]),
        _linear(v, ws[2], bs[2]),
    )


def _pad_last(mask: Tensor) -> Tensor:
    from .nnfunctional import pad

    return pad(mask, (0, 1))


def multi_head_attention_forward(
    query: Any,
    key: Any,
    value: Any,
    embed_dim_to_check: Any,
    num_heads: Any,
    in_proj_weight: Any,
    in_proj_bias: Any,
    bias_k: Any,
    bias_v: Any,
    add_zero_attn: Any,
    dropout_p: Any,
    out_proj_weight: Any,
    out_proj_bias: Any,
    training: Any = True,
    key_padding_mask: Any = None,
    need_weights: Any = True,
    attn_mask: Any = None,
    use_separate_proj_weight: Any = False,
    q_proj_weight: Any = None,
    k_proj_weight: Any = None,
    v_proj_weight: Any = None,
    static_k: Any = None,
    static_v: Any = None,
    average_attn_weights: Any = True,
    is_causal: Any = False,
) -> tuple[Tensor, Tensor | None]:
    """`F.multi_head_attention_forward`, step by step as torch.nn.functional's."""
    fn = "multi_head_attention_forward"
    q = A.tensor_arg(query, "query")
    k = A.tensor_arg(key, "key")
    v = A.tensor_arg(value, "value")
    kpm = None if key_padding_mask is None else A.tensor_arg(key_padding_mask, "key_padding_mask")
    mask = None if attn_mask is None else A.tensor_arg(attn_mask, "attn_mask")
    heads = num_heads
    if isinstance(heads, bool) or not isinstance(heads, (int, np.integer)):
        raise _err(f"num_heads must be an int, not {typename(heads)}", "TypeError")
    heads = int(heads)
    if static_k is not None or static_v is not None:
        raise GradcliError(f"{fn}: static_k / static_v are not supported by gradcli")
    batched = _mha_shape_check(q, k, v, kpm, mask, heads)
    if not batched:
        q, k, v = (F.unsqueeze(t, 1) if t is not None else t for t in (q, k, v))
        if key is value:
            v = k
        if query is key:
            q = k
        if kpm is not None:
            kpm = F.unsqueeze(kpm, 0)
    tgt_len, bsz, embed_dim = q.shape
    src_len = k.shape[0]
    kpm = _canonical_mask(kpm, "key_padding_mask", mask, "attn_mask", q.dtype, True)
    causal = _bool(is_causal, "is_causal", fn)
    need = bool(need_weights)
    if causal and mask is None:
        raise _err(
            "Need attn_mask if specifying the is_causal hint. You may use the Transformer "
            "module method `generate_square_subsequent_mask` to create this mask."
        )
    if causal and kpm is None and not need:
        mask = None
    else:
        mask = _canonical_mask(mask, "attn_mask", None, "", q.dtype, False)
        if kpm is not None:
            causal = False
    _assert(
        embed_dim == embed_dim_to_check,
        f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}",
    )
    if heads <= 0:
        raise _err("integer division or modulo by zero", "ZeroDivisionError")
    head_dim = embed_dim // heads
    _assert(
        head_dim * heads == embed_dim,
        f"embed_dim {embed_dim} not divisible by num_heads {heads}",
    )
    if use_separate_proj_weight:
        _assert(
            k.shape[:2] == v.shape[:2],
            f"key's sequence and batch dims {_shape_text(k.shape[:2])} do not match value's "
            f"{_shape_text(v.shape[:2])}",
        )
    else:
        _assert(
            k.shape == v.shape,
            f"key shape {_shape_text(k.shape)} does not match value shape {_shape_text(v.shape)}",
        )
    # the attention weights, (bsz * heads, tgt, src (+2)), against the element limit first
    A.size_check((bsz * heads, tgt_len, src_len + 2), "the attention weights")
    if not use_separate_proj_weight:
        _assert(
            in_proj_weight is not None,
            "use_separate_proj_weight is False but in_proj_weight is None",
        )
        q, k, v = _in_projection_packed(q, k, v, in_proj_weight, in_proj_bias)
    else:
        for w, n in ((q_proj_weight, "q"), (k_proj_weight, "k"), (v_proj_weight, "v")):
            _assert(w is not None, f"use_separate_proj_weight is True but {n}_proj_weight is None")
        bs = (None, None, None) if in_proj_bias is None else CO.chunk(in_proj_bias, 3)
        q, k, v = _in_projection(q, k, v, (q_proj_weight, k_proj_weight, v_proj_weight), bs)
    if mask is not None:
        if mask.ndim == 2:
            if mask.shape != (tgt_len, src_len):
                raise _err(
                    f"The shape of the 2D attn_mask is {_shape_text(mask.shape)}, but should be "
                    f"{(tgt_len, src_len)}."
                )
            mask = F.unsqueeze(mask, 0)
        elif mask.ndim == 3:
            want = (bsz * heads, tgt_len, src_len)
            if mask.shape != want:
                raise _err(
                    f"The shape of the 3D attn_mask is {_shape_text(mask.shape)}, but should be "
                    f"{want}."
                )
        else:
            raise _err(f"attn_mask's dimension {mask.ndim} is not supported")
    if bias_k is not None and bias_v is not None:
        k = F.cat([k, CO.repeat(bias_k, 1, bsz, 1)])
        v = F.cat([v, CO.repeat(bias_v, 1, bsz, 1)])
        if mask is not None:
            mask = _pad_last(mask)
        if kpm is not None:
            kpm = _pad_last(kpm)
    else:
        _assert(bias_k is None, "bias_k is set but bias_v is None")
        _assert(bias_v is None, "bias_v is set but bias_k is None")
    q = F.transpose(F.view(q, tgt_len, bsz * heads, head_dim), 0, 1)
    k = F.transpose(F.view(k, k.shape[0], bsz * heads, head_dim), 0, 1)
    v = F.transpose(F.view(v, v.shape[0], bsz * heads, head_dim), 0, 1)
    if add_zero_attn:
        zeros = Tensor(np.zeros((bsz * heads, 1, head_dim), k.dtype))
        k = F.cat([k, zeros], 1)
        v = F.cat([v, Tensor(np.zeros((bsz * heads, 1, head_dim), v.dtype))], 1)
        if mask is not None:
            mask = _pad_last(mask)
        if kpm is not None:
            kpm = _pad_last(kpm)
    src_len = k.shape[1]
    if kpm is not None:
        _assert(
            kpm.shape[0] == bsz,
            f"Expected key_padded_mask.shape[0] to be {bsz}, but got {kpm.shape[0]}",
        )
        _assert(
            kpm.shape[1] == src_len,
            f"Expected key_padded_mask.shape[1] to be {src_len}, but got {kpm.shape[1]}",
        )
        kpm = F.view(kpm, bsz, 1, 1, src_len)
        kpm = F.reshape(F.expand(kpm, -1, heads, -1, -1), bsz * heads, 1, src_len)
        mask = kpm if mask is None else A.add_t(mask, kpm)
    p = float(dropout_p) if training else 0.0
    if need:
        e = q.shape[-1]
        q_scaled = A.mul_t(q, math.sqrt(1.0 / float(e)))
        _assert(not (causal and mask is None), "FIXME: is_causal not implemented for need_weights")
        scores = A.matmul(q_scaled, F.transpose(k, -2, -1))
        if mask is not None:
            scores = A.named(A.add_t(mask, scores), "BaddbmmBackward0")
        else:
            scores = A.named(scores, "BmmBackward0")
        weights = F.softmax(scores, -1)
        if p > 0.0:
            from .sampling import dropout

            weights = dropout(weights, p, True)
        out = A.named(A.matmul(weights, v), "BmmBackward0")
        out = F.reshape(F.transpose(out, 0, 1), tgt_len * bsz, embed_dim)
        out = _linear(out, out_proj_weight, out_proj_bias)
        out = F.view(out, tgt_len, bsz, out.shape[1])
        weights = F.view(weights, bsz, heads, tgt_len, src_len)
        if average_attn_weights:
            weights = F.mean(weights, 1)
        if not batched:
            out = A.named(F.squeeze(out, 1), "SqueezeBackward1")
            weights = A.named(F.squeeze(weights, 0), "SqueezeBackward1")
        return out, weights
    if mask is not None:
        if mask.shape[0] == 1 and mask.ndim == 3:
            mask = F.unsqueeze(mask, 0)
        else:
            mask = F.view(mask, bsz, heads, -1, src_len)
    q = F.view(q, bsz, heads, tgt_len, head_dim)
    k = F.view(k, bsz, heads, src_len, head_dim)
    v = F.view(v, bsz, heads, src_len, head_dim)
    out = scaled_dot_product_attention(q, k, v, mask, p, causal)
    out = F.reshape(F.permute(out, 2, 0, 1, 3), bsz * tgt_len, embed_dim)
    out = _linear(out, out_proj_weight, out_proj_bias)
    out = F.view(out, tgt_len, bsz, out.shape[1])
    if not batched:
        out = A.named(F.squeeze(out, 1), "SqueezeBackward1")
    return out, None


def _positive_int(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise _err(
            f"empty(): argument 'size' (position 1) must be tuple of ints, but found element of "
            f"type {typename(v)} at pos 0",
            "TypeError",
        )
    return int(v)


class NonDynamicallyQuantizableLinear(Linear):
    """MultiheadAttention's out_proj: an nn.Linear under another name."""

    @property
    def name(self) -> str:
        return "NonDynamicallyQuantizableLinear"


class MultiheadAttention(Module):
    METHODS = Module.METHODS + ("_reset_parameters",)
    ATTRIBUTES = (
        "training",
        "embed_dim",
        "kdim",
        "vdim",
        "num_heads",
        "dropout",
        "batch_first",
        "head_dim",
        "add_zero_attn",
        "bias_k",
        "bias_v",
        "_qkv_same_embed_dim",
    )

    def __init__(
        self,
        embed_dim: Any,
        num_heads: Any,
        dropout: Any = 0.0,
        bias: Any = True,
        add_bias_kv: Any = False,
        add_zero_attn: Any = False,
        kdim: Any = None,
        vdim: Any = None,
        batch_first: Any = False,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        for v, n in ((embed_dim, "embed_dim"), (num_heads, "num_heads")):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise _err(f"{n} must be an int, not {typename(v)}", "TypeError")
        if embed_dim <= 0 or num_heads <= 0:
            raise _err(
                "embed_dim and num_heads must be greater than 0, got "
                f"embed_dim={embed_dim} and num_heads={num_heads} instead",
                "ValueError",
            )
        super().__init__()
        e = int(embed_dim)
        self.embed_dim = e
        self.kdim = e if kdim is None else _positive_int(kdim, "kdim")
        self.vdim = e if vdim is None else _positive_int(vdim, "vdim")
        self._qkv_same_embed_dim = self.kdim == e and self.vdim == e
        self.num_heads = int(num_heads)
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = e // self.num_heads
        if self.head_dim * self.num_heads != e:
            raise _err("embed_dim must be divisible by num_heads", "AssertionError")
        # every parameter against the element limits before anything is drawn
        total = 0
        for n in (3 * e * e, e * self.kdim, e * self.vdim, e * e):
            limits.TENSOR_ELEMENTS.check(n, "a parameter of MultiheadAttention")
            total += n
        limits.check_parameters(total, "MultiheadAttention")
        draw = _draw_dtype(dtype)
        # Made as PyTorch makes them: the out-projection (an nn.Linear: its own draws) first,
        # then _reset_parameters: xavier_uniform_ of the in-projection, the biases zeroed,
        # xavier_normal_ of bias_k / bias_v.
        out_proj = NonDynamicallyQuantizableLinear(e, e, bias=bias, dtype=dtype)
        drawn = self._drawn(bool(bias), bool(add_bias_kv), draw)
        if self._qkv_same_embed_dim:
            drawn[1:1] = [(n, None, 1) for n in ("q_proj_weight", "k_proj_weight", "v_proj_weight")]
        else:
            drawn.insert(3, ("in_proj_weight", None, 1))
        self._register_drawn([d for d in drawn if d[0] not in ("bias_k", "bias_v")], dtype)
        if bias:
            rewrite(out_proj._parameters["bias"], 0)
        if add_bias_kv:
            self._register_drawn([d for d in drawn if d[0] in ("bias_k", "bias_v")], dtype)
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self.add_module("out_proj", out_proj)

    def _drawn(self, bias: bool, bias_kv: bool, draw: Any) -> Any:
        """PyTorch's _reset_parameters, in its order: xavier_uniform_ of the in-projection
        (one matrix, or q, k, v), the in-projection's bias zeroed, xavier_normal_ of bias_k
        and bias_v (the out-projection's bias is zeroed between: `_reset_parameters`)."""
        e = self.embed_dim
        if self._qkv_same_embed_dim:
            out = [("in_proj_weight", R.xavier_uniform_((3 * e, e), dtype=draw), 1)]
        else:
            out = [
                ("q_proj_weight", R.xavier_uniform_((e, e), dtype=draw), 1),
                ("k_proj_weight", R.xavier_uniform_((e, self.kdim), dtype=draw), 1),
                ("v_proj_weight", R.xavier_uniform_((e, self.vdim), dtype=draw), 1),
            ]
        out.append(("in_proj_bias", np.zeros(3 * e, np.dtype(draw)) if bias else None, 1))
        if bias_kv:
            out.append(("bias_k", R.xavier_normal_((1, 1, e), dtype=draw), 1))
            out.append(("bias_v", R.xavier_normal_((1, 1, e), dtype=draw), 1))
        return out

    def _reset_parameters(self) -> None:
        p = self._parameters
        draw = self._reset_dtype()
        bias = p.get("in_proj_bias") is not None
        drawn = self._drawn(bias, p.get("bias_k") is not None, draw)
        self._rewrite_drawn([d for d in drawn if d[0] not in ("bias_k", "bias_v")])
        out_bias = self._modules["out_proj"]._parameters.get("bias")
        if bias and out_bias is not None:
            rewrite(out_bias, 0)
        self._rewrite_drawn([d for d in drawn if d[0] in ("bias_k", "bias_v")])

    def forward(
        self,
        query: Any,
        key: Any,
        value: Any,
        key_padding_mask: Any = None,
        need_weights: Any = True,
        attn_mask: Any = None,
        average_attn_weights: Any = True,
        is_causal: Any = False,
    ) -> tuple[Tensor, Tensor | None]:
        q = A.tensor_arg(query, "query")
        batched = q.ndim == 3
        kpm = _canonical_mask(
            key_padding_mask, "key_padding_mask", attn_mask, "attn_mask", q.dtype, True
        )
        mask = _canonical_mask(attn_mask, "attn_mask", None, "", q.dtype, False)
        if self.batch_first and batched:
            if key is value:
                if query is key:
                    query = key = value = F.transpose(query, 1, 0)
                else:
                    query, key = (F.transpose(t, 1, 0) for t in (query, key))
                    value = key
            else:
                query, key, value = (F.transpose(t, 1, 0) for t in (query, key, value))
        p = self._parameters
        common = dict(
            training=self.training,
            key_padding_mask=kpm,
            need_weights=need_weights,
            attn_mask=mask,
            average_attn_weights=average_attn_weights,
            is_causal=is_causal,
        )
        out_proj = self._modules["out_proj"]
        if not self._qkv_same_embed_dim:
            out, weights = multi_head_attention_forward(
                query,
                key,
                value,
                self.embed_dim,
                self.num_heads,
                p.get("in_proj_weight"),
                p.get("in_proj_bias"),
                p.get("bias_k"),
                p.get("bias_v"),
                self.add_zero_attn,
                self.dropout,
                out_proj._parameters["weight"],
                out_proj._parameters["bias"],
                use_separate_proj_weight=True,
                q_proj_weight=p.get("q_proj_weight"),
                k_proj_weight=p.get("k_proj_weight"),
                v_proj_weight=p.get("v_proj_weight"),
                **common,
            )
        else:
            out, weights = multi_head_attention_forward(
                query,
                key,
                value,
                self.embed_dim,
                self.num_heads,
                p.get("in_proj_weight"),
                p.get("in_proj_bias"),
                p.get("bias_k"),
                p.get("bias_v"),
                self.add_zero_attn,
                self.dropout,
                out_proj._parameters["weight"],
                out_proj._parameters["bias"],
                **common,
            )
        if self.batch_first and batched:
            return F.transpose(out, 1, 0), weights
        return out, weights


# --- the Transformer layers ----------------------------------------------------------------


def generate_square_subsequent_mask(sz: Any, device: Any = None, dtype: Any = None) -> Tensor:
    """`nn.Transformer.generate_square_subsequent_mask(sz)`: -inf above the diagonal, 0 on and
    below it (torch.triu(torch.full((sz, sz), -inf), diagonal=1))."""
    from ..core.dtypes import check_dtype
    from .args import shape_arg

    n = shape_arg((sz,), "sz")[0]
    shape_arg((n, n))
    dt = np.dtype(_draw_default() if dtype is None else check_dtype(dtype, fn="full"))
    return Tensor(np.triu(np.full((n, n), -np.inf, dt), 1))


def _draw_default() -> Any:
    from ..core.tensor import Settings

    return Settings.default_dtype


def _activation(activation: Any) -> tuple[Any, Module | None]:
    """The layer's activation: "relu" / "gelu" as F's functions, or a module / function."""
    if isinstance(activation, str):
        if activation == "relu":
            return F.relu, None
        if activation == "gelu":
            return F.gelu, None
        raise _err(f"activation should be relu/gelu, not {activation}")
    if isinstance(activation, Module):
        return activation, activation
    if callable(activation):
        return activation, None
    raise _err(f"activation should be relu/gelu, not {activation}")


def _clone(m: Module) -> Module:
    """A deep copy of a built-in module (copy.deepcopy of PyTorch's _get_clones): the same
    configuration, parameters copied (nothing is drawn)."""
    new = object.__new__(type(m))
    new.__dict__.update(m.__dict__)
    new._parameters = {
        k: None if p is None else _weights(np.array(p.data), 0, dtype=p.dtype)
        for k, p in m._parameters.items()
    }
    for k, p in m._parameters.items():
        if p is not None:
            new._parameters[k].requires_grad = p.requires_grad
    new._buffers = {
        k: None if b is None else Tensor(np.array(b.data)) for k, b in m._buffers.items()
    }
    new._non_persistent = set(m._non_persistent)
    new._modules = ModuleEntries((k, _clone(c)) for k, c in m._modules.items())
    return new


def _dropout_module(p: Any) -> Module:
    from .nn import Dropout

    return Dropout(p)


def _layer_norm(d: int, eps: Any, bias: Any, dtype: Any) -> Module:
    from .layers import LayerNorm

    return LayerNorm(d, eps=eps, bias=bias, dtype=dtype)


class _TransformerLayer(Module):
    ATTRIBUTES = ("training", "norm_first", "activation_relu_or_gelu", "activation")

    def _common(
        self,
        d_model: Any,
        nhead: Any,
        dim_feedforward: Any,
        dropout: Any,
        activation: Any,
        layer_norm_eps: Any,
        batch_first: Any,
        norm_first: Any,
        bias: Any,
        dtype: Any,
        attentions: tuple[str, ...],
        norms: int,
    ) -> None:
        super().__init__()
        for name in attentions:
            self.add_module(
                name,
                MultiheadAttention(
                    d_model,
                    nhead,
                    dropout=dropout,
                    bias=bias,
                    batch_first=batch_first,
                    dtype=dtype,
                ),
            )
        ff = _positive_int(dim_feedforward, "dim_feedforward")
        limits.TENSOR_ELEMENTS.check(int(d_model) * ff, "a parameter of the feed-forward block")
        self.add_module("linear1", Linear(d_model, ff, bias=bias, dtype=dtype))
        self.add_module("dropout", _dropout_module(dropout))
        self.add_module("linear2", Linear(ff, d_model, bias=bias, dtype=dtype))
        self.norm_first = bool(norm_first)
        for k in range(1, norms + 1):
            self.add_module(f"norm{k}", _layer_norm(d_model, layer_norm_eps, bias, dtype))
        for k in range(1, norms + 1):
            self.add_module(f"dropout{k}", _dropout_module(dropout))
        fn, module = _activation(activation)
        self.activation_relu_or_gelu = 1 if fn is F.relu else 2 if fn is F.gelu else 0
        self._act = fn
        if module is not None:
            self.add_module("activation", module)
        else:
            self.activation = fn

    def _ff_block(self, x: Tensor) -> Tensor:
        m = self._modules
        h = m["linear1"](x)
        h = self._act(h) if not isinstance(self._act, Module) else m["activation"](h)
        return m["dropout2" if "norm3" not in m else "dropout3"](m["linear2"](m["dropout"](h)))

    def _attend(
        self, attn: str, drop: str, x: Tensor, mem: Tensor, mask: Any, kpm: Any, causal: Any
    ) -> Tensor:
        out = self._modules[attn](
            x,
            mem,
            mem,
            attn_mask=mask,
            key_padding_mask=kpm,
            need_weights=False,
            is_causal=causal,
        )[0]
        return self._modules[drop](out)


class TransformerEncoderLayer(_TransformerLayer):
    def __init__(
        self,
        d_model: Any,
        nhead: Any,
        dim_feedforward: Any = 2048,
        dropout: Any = 0.1,
        activation: Any = "relu",
        layer_norm_eps: Any = 1e-5,
        batch_first: Any = False,
        norm_first: Any = False,
        bias: Any = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        self._common(
            d_model,
            nhead,
            dim_feedforward,
            dropout,
            activation,
            layer_norm_eps,
            batch_first,
            norm_first,
            bias,
            dtype,
            ("self_attn",),
            2,
        )

    def forward(
        self,
        src: Any,
        src_mask: Any = None,
        src_key_padding_mask: Any = None,
        is_causal: Any = False,
    ) -> Tensor:
        x = A.tensor_arg(src, "src")
        kpm = _canonical_mask(
            src_key_padding_mask, "src_key_padding_mask", src_mask, "src_mask", x.dtype, True
        )
        mask = _canonical_mask(src_mask, "src_mask", None, "", x.dtype, False)
        m = self._modules
        if self.norm_first:
            h = m["norm1"](x)
            x = A.add_t(x, self._attend("self_attn", "dropout1", h, h, mask, kpm, is_causal))
            x = A.add_t(x, self._ff_block(m["norm2"](x)))
        else:
            x = m["norm1"](
                A.add_t(x, self._attend("self_attn", "dropout1", x, x, mask, kpm, is_causal))
            )
            x = m["norm2"](A.add_t(x, self._ff_block(x)))
        return x


class TransformerDecoderLayer(_TransformerLayer):
    def __init__(
        self,
        d_model: Any,
        nhead: Any,
        dim_feedforward: Any = 2048,
        dropout: Any = 0.1,
        activation: Any = "relu",
        layer_norm_eps: Any = 1e-5,
        batch_first: Any = False,
        norm_first: Any = False,
        bias: Any = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        self._common(
            d_model,
            nhead,
            dim_feedforward,
            dropout,
            activation,
            layer_norm_eps,
            batch_first,
            norm_first,
            bias,
            dtype,
            ("self_attn", "multihead_attn"),
            3,
        )

    def forward(
        self,
        tgt: Any,
        memory: Any,
        tgt_mask: Any = None,
        memory_mask: Any = None,
        tgt_key_padding_mask: Any = None,
        memory_key_padding_mask: Any = None,
        tgt_is_causal: Any = False,
        memory_is_causal: Any = False,
    ) -> Tensor:
        x = A.tensor_arg(tgt, "tgt")
        mem = A.tensor_arg(memory, "memory")
        m = self._modules
        if self.norm_first:
            h = m["norm1"](x)
            x = A.add_t(
                x,
                self._attend(
                    "self_attn", "dropout1", h, h, tgt_mask, tgt_key_padding_mask, tgt_is_causal
                ),
            )
            x = A.add_t(
                x,
                self._attend(
                    "multihead_attn",
                    "dropout2",
                    m["norm2"](x),
                    mem,
                    memory_mask,
                    memory_key_padding_mask,
                    memory_is_causal,
                ),
            )
            x = A.add_t(x, self._ff_block(m["norm3"](x)))
        else:
            sa = self._attend(
                "self_attn", "dropout1", x, x, tgt_mask, tgt_key_padding_mask, tgt_is_causal
            )
            x = m["norm1"](A.add_t(x, sa))
            ca = self._attend(
                "multihead_attn",
                "dropout2",
                x,
                mem,
                memory_mask,
                memory_key_padding_mask,
                memory_is_causal,
            )
            x = m["norm2"](A.add_t(x, ca))
            x = m["norm3"](A.add_t(x, self._ff_block(x)))
        return x


class _Stack(Module):
    ATTRIBUTES = ("training", "num_layers")

    def program_attribute(self, name: str) -> Any:
        if name == "norm" and self._modules.get("norm") is None:
            return None  # made without a final norm: PyTorch's attribute is None
        return super().program_attribute(name)

    def _stack(self, layer: Any, num_layers: Any, norm: Any) -> None:
        super().__init__()
        if not isinstance(layer, _TransformerLayer):
            raise GradcliError(
                f"{type(self).__name__} expects a built-in Transformer layer, not {typename(layer)}"
            )
        n = _positive_int(num_layers, "num_layers")
        limits.LIST_ITEMS.check(n, "the number of layers")
        per = sum(p.data.nbytes for _, p in layer.named_parameters())
        limits.check_parameters(per * n, type(self).__name__, itemsize=1)
        from .nn import ModuleList

        self.add_module("layers", ModuleList([_clone(layer) for _ in range(n)]))
        self.num_layers = n
        if norm is not None:
            self.add_module("norm", norm)
        else:
            self.norm = None


def _why_not_nested(layer: Any) -> str:
    """Why TransformerEncoder will not use nested tensors (PyTorch warns with it)."""
    e = "encoder_layer"
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{e} was not TransformerEncoderLayer"
    attn = layer._modules["self_attn"]
    m = layer._modules
    if layer.norm_first:
        return f"{e}.norm_first was True"
    if not attn.batch_first:
        return (
            f"{e}.self_attn.batch_first was not True(use batch_first for better inference "
            "performance)"
        )
    if not attn._qkv_same_embed_dim:
        return f"{e}.self_attn._qkv_same_embed_dim was not True"
    if attn._parameters.get("in_proj_bias") is None:
        return f"{e}.self_attn was passed bias=False"
    if not layer.activation_relu_or_gelu:
        return f"{e}.activation_relu_or_gelu was not True"
    if m["norm1"].eps != m["norm2"].eps:
        return f"{e}.norm1.eps was not equal to {e}.norm2.eps"
    if attn.num_heads % 2 == 1:
        return f"{e}.self_attn.num_heads is odd"
    return ""


class TransformerEncoder(_Stack):
    ATTRIBUTES = _Stack.ATTRIBUTES + ("enable_nested_tensor", "use_nested_tensor", "mask_check")

    def __init__(
        self,
        encoder_layer: Any,
        num_layers: Any,
        norm: Any = None,
        enable_nested_tensor: Any = True,
        mask_check: Any = True,
    ) -> None:
        self._stack(encoder_layer, num_layers, norm)
        reason = _why_not_nested(encoder_layer)
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = bool(enable_nested_tensor) and not reason
        self.mask_check = mask_check
        if enable_nested_tensor and reason:
            from ..core import hooks

            hooks.warn(
                "enable_nested_tensor is True, but self.use_nested_tensor is False because "
                + reason
            )

    def forward(
        self, src: Any, mask: Any = None, src_key_padding_mask: Any = None, is_causal: Any = None
    ) -> Tensor:
        x = A.tensor_arg(src, "src")
        kpm = _canonical_mask(
            src_key_padding_mask, "src_key_padding_mask", mask, "mask", x.dtype, True
        )
        mask = _canonical_mask(mask, "mask", None, "", x.dtype, False)
        for layer in self._modules["layers"]._modules.values():
            x = layer(x, src_mask=mask, is_causal=bool(is_causal), src_key_padding_mask=kpm)
        norm = self._modules.get("norm")
        return norm(x) if norm is not None else x


class TransformerDecoder(_Stack):
    def __init__(self, decoder_layer: Any, num_layers: Any, norm: Any = None) -> None:
        self._stack(decoder_layer, num_layers, norm)

    def forward(
        self,
        tgt: Any,
        memory: Any,
        tgt_mask: Any = None,
        memory_mask: Any = None,
        tgt_key_padding_mask: Any = None,
        memory_key_padding_mask: Any = None,
        tgt_is_causal: Any = None,
        memory_is_causal: Any = False,
    ) -> Tensor:
        x = A.tensor_arg(tgt, "tgt")
        for layer in self._modules["layers"]._modules.values():
            x = layer(
                x,
                memory,
                tgt_mask=tgt_mask,
                memory_mask=memory_mask,
                tgt_key_padding_mask=tgt_key_padding_mask,
                memory_key_padding_mask=memory_key_padding_mask,
                tgt_is_causal=bool(tgt_is_causal),
                memory_is_causal=memory_is_causal,
            )
        norm = self._modules.get("norm")
        return norm(x) if norm is not None else x


class Transformer(Module):
    """nn.Transformer: an encoder (its layers and a final LayerNorm) and a decoder (the same),
    every matrix re-drawn with xavier_uniform_ afterwards, in parameters() order."""

    METHODS = Module.METHODS + ("_reset_parameters", "generate_square_subsequent_mask")
    ATTRIBUTES = ("training", "d_model", "nhead", "batch_first")

    @staticmethod
    def generate_square_subsequent_mask(sz: Any, device: Any = None, dtype: Any = None) -> Tensor:
        """The class's function, read through a module (`model.generate_square_...`)."""
        return generate_square_subsequent_mask(sz, device, dtype)

    def __init__(
        self,
        d_model: Any = 512,
        nhead: Any = 8,
        num_encoder_layers: Any = 6,
        num_decoder_layers: Any = 6,
        dim_feedforward: Any = 2048,
        dropout: Any = 0.1,
        activation: Any = "relu",
        custom_encoder: Any = None,
        custom_decoder: Any = None,
        layer_norm_eps: Any = 1e-5,
        batch_first: Any = False,
        norm_first: Any = False,
        bias: Any = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        if custom_encoder is not None or custom_decoder is not None:
            raise GradcliError("nn.Transformer: custom_encoder / custom_decoder are not supported")
        d, ff = _positive_int(d_model, "d_model"), _positive_int(dim_feedforward, "dim_feedforward")
        ne = _positive_int(num_encoder_layers, "num_encoder_layers")
        nd = _positive_int(num_decoder_layers, "num_decoder_layers")
        per = 4 * d * d + 2 * d * ff
        limits.check_parameters(per * ne + (per + 4 * d * d) * nd, "Transformer")
        kw = dict(
            dim_feedforward=ff,
            dropout=dropout,
            activation=activation,
            layer_norm_eps=layer_norm_eps,
            batch_first=batch_first,
            norm_first=norm_first,
            bias=bias,
            dtype=dtype,
        )
        enc = TransformerEncoderLayer(d, nhead, **kw)
        self.add_module(
            "encoder",
            TransformerEncoder(enc, ne, _layer_norm(d, layer_norm_eps, bias, dtype)),
        )
        dec = TransformerDecoderLayer(d, nhead, **kw)
        self.add_module(
            "decoder", TransformerDecoder(dec, nd, _layer_norm(d, layer_norm_eps, bias, dtype))
        )
        self.d_model, self.nhead, self.batch_first = d, nhead, batch_first
        self._xavier(_draw_dtype(dtype))

    def _reset_parameters(self) -> None:
        self._xavier(None)

    def _xavier(self, draw: Any) -> None:
        """PyTorch's _reset_parameters: xavier_uniform_ of every parameter of more than one
        dimension, in parameters() order."""
        for p in self.parameters():
            if p.ndim > 1:
                dt = draw if draw is not None else reset_dtype([p])
                rewrite(p, R.xavier_uniform_(p.shape, dtype=dt))

    def forward(
        self,
        src: Any,
        tgt: Any,
        src_mask: Any = None,
        tgt_mask: Any = None,
        memory_mask: Any = None,
        src_key_padding_mask: Any = None,
        tgt_key_padding_mask: Any = None,
        memory_key_padding_mask: Any = None,
        src_is_causal: Any = None,
        tgt_is_causal: Any = None,
        memory_is_causal: Any = False,
    ) -> Tensor:
        s, t = A.tensor_arg(src, "src"), A.tensor_arg(tgt, "tgt")
        batched = s.ndim == 3
        if not self.batch_first and s.shape[1] != t.shape[1] and batched:
            raise _err("the batch number of src and tgt must be equal")
        if self.batch_first and s.shape[0] != t.shape[0] and batched:
            raise _err("the batch number of src and tgt must be equal")
        if s.shape[-1] != self.d_model or t.shape[-1] != self.d_model:
            raise _err("the feature number of src and tgt must be equal to d_model")
        memory = self._modules["encoder"](
            s, mask=src_mask, src_key_padding_mask=src_key_padding_mask, is_causal=src_is_causal
        )
        return self._modules["decoder"](
            t,
            memory,
            tgt_mask=tgt_mask,
            memory_mask=memory_mask,
            tgt_key_padding_mask=tgt_key_padding_mask,
            memory_key_padding_mask=memory_key_padding_mask,
            tgt_is_causal=tgt_is_causal,
            memory_is_causal=memory_is_causal,
        )


_transformer = _constructor(Transformer)
_transformer.class_functions = {  # type: ignore[attr-defined]
    "generate_square_subsequent_mask": generate_square_subsequent_mask
}


NAMES = declare(
    (
        "scaled_dot_product_attention",
        "F",
        scaled_dot_product_attention,
        "composition of matmul permute mul add exp sub sum reciprocal softmax where",
    ),
    (
        "multi_head_attention_forward",
        "F",
        multi_head_attention_forward,
        "composition of matmul permute add mul softmax reshape index mean cat expand clone",
    ),
    (
        "MultiheadAttention",
        "nn",
        _constructor(MultiheadAttention),
        "composition of matmul permute add mul softmax reshape index mean cat expand clone",
    ),
    (
        "TransformerEncoderLayer",
        "nn",
        _constructor(TransformerEncoderLayer),
        "composition of matmul permute add mul softmax layer_norm relu reshape index clone",
    ),
    (
        "TransformerDecoderLayer",
        "nn",
        _constructor(TransformerDecoderLayer),
        "composition of matmul permute add mul softmax layer_norm relu reshape index clone",
    ),
    (
        "TransformerEncoder",
        "nn",
        _constructor(TransformerEncoder),
        "composition of matmul permute add mul softmax layer_norm relu reshape index clone",
    ),
    (
        "TransformerDecoder",
        "nn",
        _constructor(TransformerDecoder),
        "composition of matmul permute add mul softmax layer_norm relu reshape index clone",
    ),
    (
        "Transformer",
        "nn",
        _transformer,
        "composition of matmul permute add mul softmax layer_norm relu reshape index clone",
    ),
)
