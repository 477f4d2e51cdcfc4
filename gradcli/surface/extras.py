"""More of `torch.nn.functional` and `torch` as compositions of records, each written the way
PyTorch computes it (its order of operations in float32, its checks and wording) and shown
with PyTorch's grad_fn name: pixel_shuffle / pixel_unshuffle, instance_norm,
local_response_norm, adaptive_max_pool1d/2d, rrelu, gumbel_softmax, multi_margin_loss,
addr, addbmm, renorm and corrcoef. The modules over them are in `layers`."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import GradcliError, NotSupported
from ..core import hooks
from ..core.dtypes import BF16, LEGACY_TYPES, cpp_type_name, scalar_type_name
from ..core.op import apply
from ..core.tensor import Tensor, _GradMode, no_grad, typename
from ..ops import arithmetic as A
from ..ops import elementwise as E
from ..ops import linalg as L
from . import args as C
from . import functional as F
from .args import legacy_reductions, reduction_arg
from .nnfunctional import _ADAPTIVE_WINDOWS, _adaptive_sizes

# --- pixel shuffle -----------------------------------------------------------------------------


def _factor(v: Any, fn: str, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise GradcliError(
            f"{fn}(): argument '{what}' (position 2) must be int, not {typename(v)}"
        ).mirror("TypeError")
    if v <= 0:
        raise GradcliError(f"{fn} expects a positive {what}, but got {int(v)}")
    return int(v)


def pixel_shuffle(input: Any, upscale_factor: Any) -> Tensor:  # noqa: A002
    """(*, C r^2, H, W) -> (*, C, H r, W r): channel c r^2 + i r + j goes to row h r + i,
    column w r + j of channel c."""
    x = A.tensor_arg(input, "input")
    if x.ndim < 3:
        raise GradcliError(
            "pixel_shuffle expects input to have at least 3 dimensions, but got input with "
            f"{x.ndim} dimension(s)"
        )
    r = _factor(upscale_factor, "pixel_shuffle", "upscale_factor")
    c, h, w = x.shape[-3:]
    if c % (r * r):
        raise GradcliError(
            "pixel_shuffle expects its input's 'channel' dimension to be divisible by the "
            f"square of upscale_factor, but input.size(-3)={c} is not divisible by {r * r}"
        )
    lead = tuple(x.shape[:-3])
    n = len(lead)
    y = F.reshape(x, lead + (c // (r * r), r, r, h, w))
    y = F.permute(y, tuple(range(n)) + tuple(n + i for i in (0, 3, 1, 4, 2)))
    y = F.reshape(y, lead + (c // (r * r), h * r, w * r))
    return A.named(y, "PixelShuffleBackward0")


def pixel_unshuffle(input: Any, downscale_factor: Any) -> Tensor:  # noqa: A002
    """pixel_shuffle's inverse: (*, C, H r, W r) -> (*, C r^2, H, W)."""
    x = A.tensor_arg(input, "input")
    if x.ndim < 3:
        raise GradcliError(
            "pixel_unshuffle expects input to have at least 3 dimensions, but got input with "
            f"{x.ndim} dimension(s)"
        )
    r = _factor(downscale_factor, "pixel_unshuffle", "downscale_factor")
    c, h, w = x.shape[-3:]
    for name, size, at in (("height", h, -2), ("width", w, -1)):
        if size % r:
            raise GradcliError(
                f"pixel_unshuffle expects {name} to be divisible by downscale_factor, but "
                f"input.size({at})={size} is not divisible by {r}"
            )
    lead = tuple(x.shape[:-3])
    n = len(lead)
    y = F.reshape(x, lead + (c, h // r, r, w // r, r))
    y = F.permute(y, tuple(range(n)) + tuple(n + i for i in (0, 2, 4, 1, 3)))
    y = F.reshape(y, lead + (c * r * r, h // r, w // r))
    return A.named(y, "PixelUnshuffleBackward0")


# --- instance norm -----------------------------------------------------------------------------


def _repeated(t: Any, b: int, what: str) -> Tensor | None:
    if t is None:
        return None
    t = A.tensor_arg(t, what)
    return F.cat([t] * b, 0) if b > 1 else t


def torch_instance_norm(
    input: Any,  # noqa: A002 - torch.instance_norm's C++ signature: every argument given
    weight: Any,
    bias: Any,
    running_mean: Any,
    running_var: Any,
    use_input_stats: Any,
    momentum: Any,
    eps: Any,
    cudnn_enabled: Any,
) -> Tensor:
    """torch.instance_norm (PyTorch's C++ function, not F's): the parameters before the running
    statistics, all nine arguments required."""
    return instance_norm(
        input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps
    )


def instance_norm(
    input: Any,  # noqa: A002
    running_mean: Any = None,
    running_var: Any = None,
    weight: Any = None,
    bias: Any = None,
    use_input_stats: bool = True,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """PyTorch's way: the (N, C, *) input viewed as one batch of N*C channels and batch-normed
    (weight, bias and running statistics repeated N times), the result viewed back; the
    running statistics become the mean over the batch of the N updated copies."""
    from .nnfunctional import _batch_norm as batch_norm  # C++'s: no eps check

    x = A.tensor_arg(input, "input")
    if use_input_stats:
        spatial = int(np.prod(x.shape[2:], dtype=np.int64)) if x.ndim > 2 else 1
        if spatial == 1:
            raise GradcliError(
                "Expected more than 1 spatial element when training, got input size "
                f"torch.Size([{', '.join(map(str, x.shape))}])"
            ).mirror("ValueError")
    if x.ndim < 2:
        raise GradcliError(
            "Dimension out of range (expected to be in range of [-1, 0], but got 1)"
        ).mirror("IndexError")
    b, c = x.shape[0], x.shape[1]
    A.size_check((b * c,), "instance_norm's repeated statistics")
    flat = F.reshape(x, (1, b * c) + tuple(x.shape[2:]))
    rm = _repeated(running_mean, b, "running_mean")
    rv = _repeated(running_var, b, "running_var")
    if rm is not None:
        rm = Tensor(rm.data.copy())
    if rv is not None:
        rv = Tensor(rv.data.copy())
    out = batch_norm(
        flat,
        rm,
        rv,
        _repeated(weight, b, "weight"),
        _repeated(bias, b, "bias"),
        bool(use_input_stats),
        float(momentum),
        float(eps),
    )
    from ..core.inplace import write

    with no_grad():
        for mine, stats in ((running_mean, rm), (running_var, rv)):
            if isinstance(mine, Tensor) and stats is not None and b:
                v = stats.data.reshape(b, c).astype(np.float64).mean(0)
                write(mine, v.astype(mine.dtype).reshape(mine.shape))
    return A.named(F.reshape(out, x.shape), "ViewBackward0")


# --- local response norm -------------------------------------------------------------------------


def local_response_norm(
    input: Any,  # noqa: A002
    size: int,
    alpha: float = 1e-4,
    beta: float = 0.75,
    k: float = 1.0,
) -> Tensor:
    """PyTorch's Python function: input / (k + alpha * mean of the squares over `size`
    neighbouring channels, zero-padded)**beta."""
    from .nnfunctional import avg_pool2d, pad

    x = A.tensor_arg(input, "input")
    if x.ndim < 3:
        raise GradcliError(
            "Expected 3D or higher dimensionality                          input (got "
            f"{x.ndim} dimensions)"
        ).mirror("ValueError")
    if x.data.size == 0:
        return x
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size <= 0:
        raise GradcliError(f"local_response_norm: size must be a positive int, got {size!r}")
    size = int(size)
    rest = int(np.prod(x.shape[2:], dtype=np.int64))
    A.size_check((x.shape[0], 1, x.shape[1] + size - 1, rest), "local_response_norm's padding")
    sq = A.mul_t(x, x)
    n, c = x.shape[0], x.shape[1]
    rest = int(np.prod(x.shape[2:], dtype=np.int64))
    div = F.reshape(sq, (n, 1, c, rest))
    div = pad(div, (0, 0, size // 2, (size - 1) // 2))
    div = F.reshape(avg_pool2d(div, (size, 1), stride=1), x.shape)
    div = A.pow(A.add_t(A.mul_t(div, float(alpha)), float(k)), float(beta))
    return A.div_t(x, div)


# --- adaptive max pooling -------------------------------------------------------------------------


def _adaptive_max(x: Tensor, sizes: tuple[int, ...], fn: str) -> tuple[Tensor, Tensor]:
    """Adaptive max pooling over the last len(sizes) axes: output cell i of an axis of n is
    the max over floor(i n / o) to ceil((i+1) n / o); the first of equal maxima, or the last
    NaN of the window (PyTorch's kernel replaces on `val > max || isnan(val)`). The gradient
    goes to that element; the indices are its flat position in the pooled axes."""
    import itertools

    from .composite import gather

    d = len(sizes)
    spatial = tuple(x.shape[-d:])
    lead = tuple(x.shape[:-d])
    A.size_check(lead + sizes, f"{fn} output")
    cells = int(np.prod(sizes, dtype=np.int64))
    if cells > _ADAPTIVE_WINDOWS:
        raise GradcliError(
            f"{fn}: gradcli pools at most {_ADAPTIVE_WINDOWS} output positions, got "
            + " x ".join(map(str, sizes)),
            hint=f"use max_pool{d}d when the sizes divide evenly",
        )
    span = int(np.prod(spatial, dtype=np.int64))
    plane = x.data.reshape(lead + (span,))
    strides = [int(np.prod(spatial[a + 1 :], dtype=np.int64)) for a in range(d)]
    idx = np.zeros(lead + sizes, np.int64)
    for cell in itertools.product(*(range(o) for o in sizes)):
        flat = np.zeros(1, np.int64)
        for a, i in enumerate(cell):
            n, o = spatial[a], sizes[a]
            rng = np.arange((i * n) // o, -(-((i + 1) * n) // o))
            flat = (flat[:, None] + rng[None, :] * strides[a]).ravel()
        win = plane[..., flat]
        nan = np.isnan(win)
        last_nan = win.shape[-1] - 1 - np.argmax(nan[..., ::-1], -1)
        pick = np.where(nan.any(-1), last_nan, np.argmax(win, -1))
        idx[(Ellipsis, *cell)] = flat[pick]
    flat_x = F.reshape(x, lead + (span,))
    out = gather(flat_x, flat_x.ndim - 1, Tensor(idx.reshape(lead + (cells,))))
    return F.reshape(out, lead + sizes), Tensor(idx)


def _adaptive_max_input(x: Tensor, d: int, fn: str) -> None:
    if x.ndim not in (d + 1, d + 2):
        raise GradcliError(
            f"{fn}(): Expected {d + 1}D or {d + 2}D tensor, but got: {list(x.shape)}"
        )
    for i in range(1, x.ndim):
        if x.shape[i] == 0:
            raise GradcliError(
                f"{fn}(): Expected input to have non-zero size for non-batch dimensions, but "
                f"input has sizes {list(x.shape)} with dimension {i} being empty"
            )


def adaptive_max_pool2d(
    input: Any,  # noqa: A002
    output_size: Any,
    return_indices: bool = False,
) -> Any:
    """Each output cell is the max over rows floor(i H / oh) to ceil((i+1) H / oh) and
    likewise columns (`_adaptive_max`); `return_indices` also gives its flat position in the
    H x W plane."""
    x = A.tensor_arg(input, "input")
    _adaptive_max_input(x, 2, "adaptive_max_pool2d")
    sizes = _adaptive_sizes(output_size, x.shape[-2:], "adaptive_max_pool2d")
    out, idx = _adaptive_max(x, tuple(sizes), "adaptive_max_pool2d")
    out = A.named(out, "AdaptiveMaxPool2DBackward0")
    return (out, idx) if return_indices else out


def adaptive_max_pool3d(
    input: Any,  # noqa: A002
    output_size: Any,
    return_indices: bool = False,
) -> Any:
    """`F.adaptive_max_pool3d`: `_adaptive_max` over D, H and W; the indices are flat
    positions in the D x H x W volume."""
    x = A.tensor_arg(input, "input")
    _adaptive_max_input(x, 3, "adaptive_max_pool3d")
    sizes = _adaptive_sizes(output_size, x.shape[-3:], "adaptive_max_pool3d")
    out, idx = _adaptive_max(x, tuple(sizes), "adaptive_max_pool3d")
    out = A.named(out, "AdaptiveMaxPool3DBackward0")
    return (out, idx) if return_indices else out


def adaptive_max_pool1d_with_indices(
    input: Any,  # noqa: A002
    output_size: Any,
    return_indices: bool = False,
) -> Any:
    """`F.adaptive_max_pool1d_with_indices`: values and indices, whatever return_indices."""
    return adaptive_max_pool1d(input, output_size, True)


def torch_adaptive_max_pool1d(input: Any, output_size: Any) -> Any:  # noqa: A002
    """torch.adaptive_max_pool1d (PyTorch's C++ function, not F's): values and indices."""
    return adaptive_max_pool1d(input, output_size, True)


def adaptive_max_pool2d_with_indices(
    input: Any,  # noqa: A002
    output_size: Any,
    return_indices: bool = False,
) -> Any:
    """`F.adaptive_max_pool2d_with_indices`: values and indices, whatever return_indices."""
    return adaptive_max_pool2d(input, output_size, True)


def adaptive_max_pool3d_with_indices(
    input: Any,  # noqa: A002
    output_size: Any,
    return_indices: bool = False,
) -> Any:
    """`F.adaptive_max_pool3d_with_indices`: values and indices, whatever return_indices."""
    return adaptive_max_pool3d(input, output_size, True)


def adaptive_max_pool1d(
    input: Any,  # noqa: A002
    output_size: Any,
    return_indices: bool = False,
) -> Any:
    """The 2-d pooling of a height-1 input, squeezed (PyTorch's own way)."""
    x = C.float_kernel(A.tensor_arg(input, "input"), "adaptive_max_pool2d", "f")
    if x.ndim not in (2, 3):
        raise GradcliError(
            f"Expected 2 to 3 dimensions, but got {x.ndim}-dimensional tensor for argument #1 "
            "'self' (while checking arguments for adaptive_max_pool1d)"
        )
    (n,) = _adaptive_sizes(output_size, x.shape[-1:], "adaptive_max_pool1d")
    out, idx = adaptive_max_pool2d(F.unsqueeze(x, -2), (1, n), True)
    out = A.named(F.squeeze(out, -2), "SqueezeBackward1")
    idx = Tensor(idx.data.reshape(idx.shape[:-2] + idx.shape[-1:]))
    return (out, idx) if return_indices else out


# --- rrelu ---------------------------------------------------------------------------------------


def _no_batching_rule(x: Tensor, inplace: bool) -> None:
    """PyTorch's vmap has no batching rule for rrelu: a batched input (vmap) is refused as
    aten::rrelu (rrelu_ in place), an input jacfwd differentiates as aten::rrelu_with_noise
    (its forward-mode decomposition under vmap). jacrev and jvp run it."""
    from ..core.tensor import TRANSFORMS, batched

    if batched(x):
        aten = "rrelu_" if inplace else "rrelu"
    elif "jacfwd" in TRANSFORMS and x.requires_grad:
        aten = "rrelu_with_noise"
    else:
        return
    raise (
        GradcliError(
            f"vmap: we do not yet support aten::{aten}. Please file an issue",
            hint="take its Jacobian with torch.func.jacrev, or apply it outside vmap",
        )
        .mirror("RuntimeError")
        .pytorch()
    )


def rrelu(
    input: Any,  # noqa: A002
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
    inplace: bool = False,
) -> Tensor:
    """Evaluation: leaky_relu with slope (lower + upper) / 2 (the input times a factor: the
    slope where x <= 0, else 1: the same values and gradients). Training: every element <= 0
    times its own uniform draw from [lower, upper) (PyTorch's generator, one double each, in
    memory order), the others kept; the gradient is the same factor."""
    from . import random as R

    x = C.float_kernel(A.tensor_arg(input, "input"), "leaky_relu_cpu", "f")
    _no_batching_rule(x, inplace)
    if lower > upper:
        raise GradcliError("Lower bound should be less than or equal to the upper bound")
    if inplace:  # x changed to the same product, recorded as PyTorch's rrelu_
        from ..core.inplace import inplace as change

        return change(
            x,
            lambda t: A.named(rrelu(t, lower, upper, training, False), "RreluWithNoiseBackward1"),
        )
    if not training and (x.dtype == np.float16 or x.dtype == BF16):
        # float16/bfloat16: ATen's rrelu is then leaky_relu with the mean slope, computed in
        # float and rounded once (a product with the slope rounded to the dtype misses)
        slope = (float(lower) + float(upper)) / 2
        return A.named(apply(E.leaky_relu, x, negative_slope=slope), "RreluWithNoiseBackward0")
    if not training and x.dtype.kind == "f":
        # evaluation: leaky_relu with the mean slope in the dtype, its gradient recorded under
        # create_graph=True as PyTorch's RreluWithNoiseBackwardBackward0 node (on x)
        slope = float(x.dtype.type((float(lower) + float(upper)) / 2))
        y = apply(E.leaky_relu, x, negative_slope=slope, rrelu=True)
        return A.named(y, "RreluWithNoiseBackward0")
    data = np.ascontiguousarray(x.data)
    neg = data <= 0
    noise = np.ones(data.shape, x.dtype)
    lo, hi = float(lower), float(upper)
    if not training:  # leaky_relu's x > 0 test: NaN takes the slope
        noise[~(data > 0)] = x.dtype.type((lo + hi) / 2)
    else:
        n = int(neg.sum())
        u = R._unit_f64(R.default_generator(), n) if n else np.zeros(0)
        if x.dtype != np.float64:  # PyTorch's bounds are its opmath type's (float) first
            lo, hi = float(np.float32(lo)), float(np.float32(hi))
        noise[neg] = (u * (hi - lo) + lo).astype(x.dtype)
        if x.dtype in (np.float32, np.float64):
            # (its gradient recorded as PyTorch's RreluWithNoiseBackwardBackward0)
            from ..ops.activation import rrelu_noise

            return apply(rrelu_noise, x, noise=noise)
    return A.named(A.mul_t(x, Tensor(noise)), "RreluWithNoiseBackward0")


def rrelu_(
    input: Any,  # noqa: A002
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
) -> Tensor:
    """`F.rrelu_` / `torch.rrelu_`: rrelu with inplace=True."""
    return rrelu(input, lower, upper, training, True)


# --- gumbel softmax ---


def gumbel_softmax(
    logits: Any,
    tau: float = 1.0,
    hard: bool = False,
    eps: float = 1e-10,
    dim: int = -1,
) -> Tensor:
    """PyTorch's Python function: softmax((logits - log(Exp(1) draws)) / tau); `hard` gives
    the one-hot of the argmax plus (y_soft - y_soft.detach()), the straight-through trick."""
    from .constructors import empty_like, zeros_like
    from .sampling import exponential_
    from .scatter import scatter

    x = A.tensor_arg(logits, "logits")
    if eps != 1e-10:
        hooks.warn("`eps` parameter is deprecated and has no effect.")
    g = A.neg(A.log(exponential_(empty_like(x))))
    y = F.softmax(A.div_t(A.add_t(x, g), tau), dim)
    if not hard:
        return y
    index = F.max(y.detach(), dim, keepdim=True)[1]
    one_hot = scatter(zeros_like(x), dim, index, 1.0)
    return A.add_t(A.sub_t(one_hot, y.detach()), y)


# --- multi margin loss ---


@legacy_reductions
def multi_margin_loss(
    input: Any,  # noqa: A002
    target: Any,
    p: int = 1,
    margin: float = 1.0,
    weight: Any = None,
    size_average: Any = None,
    reduce: Any = None,  # noqa: A002
    reduction: str = "mean",
) -> Tensor:
    """Per sample: the sum over the classes j other than the target y of
    max(0, margin - x[y] + x[j])**p (times weight[y]), divided by the number of classes."""
    from .composite import gather

    if p not in (1, 2):
        raise GradcliError("only p == 1 and p == 2 supported").mirror("ValueError")
    x = A.floating(A.tensor_arg(input, "input"))
    r = reduction_arg(reduction)
    t = A.tensor_arg(target, "target")
    given = x
    if (x.requires_grad and _GradMode.enabled) or _GradMode.dual:
        x = _first_order(x, "multi_margin_loss")
    if x.ndim > 2:
        raise GradcliError(
            "Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
            f"[{', '.join(map(str, x.shape))}]"
        )
    x2 = F.reshape(x, (1, -1)) if x.ndim < 2 else x
    nframe, dim = x2.shape
    if t.ndim > 1 or t.data.size != nframe:
        raise GradcliError(
            "multi_margin_loss: target tensor should be 1-D with size equal to the number of "
            f"input samples (batch size). Expected target size [{nframe}], but got "
            f"[{', '.join(map(str, t.shape))}]. Input has shape "
            f"[{', '.join(map(str, x.shape))}]."
        )
    if t.dtype != np.int64:  # (ATen's kernel reads int64 class indices; then the weight's)
        raise GradcliError(f"expected scalar type Long but found {scalar_type_name(t.dtype)}")
    tt = t.data.reshape(nframe)
    if np.any((tt < 0) | (tt >= dim)):
        raise GradcliError("target out of range")
    picked = gather(x2, 1, Tensor(tt.reshape(nframe, 1)))
    z = A.add_t(A.sub_t(float(margin), picked), x2)
    # PyTorch's kernel adds a term only where z > 0 and never the target's own: a nan term
    # (margin - inf + inf) is left out, where a product by a 0/1 mask kept it (nan loss)
    keep = z.data > 0
    keep[np.arange(nframe), tt] = False
    h = F.where(Tensor(keep), z, 0.0)
    if p == 2:
        h = A.mul_t(h, h)
    if weight is not None:
        w = A.tensor_arg(weight, "weight")
        C.not_differentiable(w, "multi_margin_loss", "weight")
        if w.dtype != x.dtype:
            raise GradcliError(
                f"expected scalar type {scalar_type_name(x.dtype)} but found "
                f"{scalar_type_name(w.dtype)}"
            )
        h = A.mul_t(h, Tensor(w.data.reshape(-1)[tt].reshape(nframe, 1).astype(x.dtype)))
    loss = A.div_t(F.sum(h, 1), dim)
    if r == "none":
        out = F.reshape(loss, t.shape if x.ndim == 2 else ())
    elif r == "sum":
        out = F.sum(loss)
    else:
        out = F.mean(loss)
    # The values as PyTorch's kernel sums them: each sample's terms one by one in the input's
    # dtype, divided by the class count; the samples' losses added in double.
    dt = x.dtype
    rows = (np.cumsum(h.data, axis=1, dtype=dt)[:, -1] if dim else np.zeros(nframe, dt)) / dt.type(
        dim
    )
    rows = rows.astype(dt)
    if r == "none":
        out.data[...] = rows.reshape(out.shape)
    elif nframe:
        total = float(np.cumsum(rows.astype(np.float64))[-1])
        out.data[...] = dt.type(total / nframe if r == "mean" else total)
    return A.shown_over(A.named(out, "MultiMarginLossBackward0"), given)


def _first_order(x: Tensor, aten: str) -> Tensor:
    """x, through a node whose gradient is the one that reaches it, except under
    create_graph=True: there a node without a derivative (PyTorch's NotImplemented, whose
    backward is its error: `aten::{aten}_backward` has no derivative), as for PyTorch's loss
    kernels whose backward kernel has no formula of its own; no forward derivative either."""
    from ..core.dual import not_implemented
    from ..core.tensor import grad_enabled
    from ..ops.custom import custom_apply
    from .sampling import _undifferentiable_draw

    def vjp(g: Tensor) -> Tensor:
        if not grad_enabled():
            return g
        graph = [v for v in (g, x) if v.requires_grad]
        return _undifferentiable_draw(np.array(g.data), graph, f"{aten}_backward") if graph else g

    def jvp(tangents: list) -> Tensor:
        raise not_implemented(aten)

    return custom_apply(
        "Identity",
        [x],
        lambda: Tensor(x.data),
        vjp,
        label="MultiMarginLossBackward0",
        jvp=jvp,
        program=False,
    )


# --- torch functions ---------------------------------------------------------------------------


def _plain_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def addr(input: Any, vec1: Any, vec2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:  # noqa: A002
    """beta * input + alpha * outer(vec1, vec2) (beta 0: input ignored, NaNs too)."""
    x = A.tensor_arg(input, "input")
    v1, v2 = A.tensor_arg(vec1, "vec1"), A.tensor_arg(vec2, "vec2")
    for name, v in (("vec1", v1), ("vec2", v2)):
        if v.ndim != 1:
            raise GradcliError(f"addr: Expected 1-D argument {name}, but got {v.ndim}-D")
    n, m = v1.shape[0], v2.shape[0]
    A.size_check((n, m), "addr's result")
    try:
        np.broadcast_to(np.empty(x.shape, np.int8), (n, m))
    except ValueError:
        xs = list(x.shape)
        bad = next(
            (i for i in range(-1, -len(xs) - 1, -1) if xs[i] != 1 and xs[i] != (n, m)[i]), -1
        )
        raise GradcliError(
            f"The expanded size of the tensor ({(n, m)[bad]}) must match the existing size "
            f"({xs[bad]}) at non-singleton dimension {2 + bad}.  Target sizes: [{n}, {m}].  "
            f"Tensor sizes: [{', '.join(map(str, xs))}]"
        ) from None
    from .linalg import _plain_scale

    if _plain_scale(v1, v2, alpha) and x.dtype == v1.dtype and _plain_number(beta):
        # one record, ATen's kernel and addr's rules (the vectors' gradients gemv products)
        base = F.expand(x, (n, m))
        out = apply(L.addr, base, v1, v2, alpha=alpha, beta=beta, label="AddrBackward0")
        return A.named(out, "AddrBackward0")
    a = F.unsqueeze(v1, 1)
    if alpha != 1:
        a = A.mul_t(a, alpha)
    prod = A.mul_t(a, F.unsqueeze(v2, 0))
    if beta == 0:
        out = prod
    else:
        out = A.add_t(x if beta == 1 else A.mul_t(x, beta), prod)
    return A.named(out, "AddrBackward0")


def addbmm(
    input: Any,  # noqa: A002
    batch1: Any,
    batch2: Any,
    *,
    beta: Any = 1,
    alpha: Any = 1,
) -> Tensor:
    """beta * input + alpha * (the sum over the batch of batch1[i] @ batch2[i]), added one
    product at a time as PyTorch's CPU kernel does."""
    x = A.tensor_arg(input, "input")
    b1, b2 = A.tensor_arg(batch1, "batch1"), A.tensor_arg(batch2, "batch2")
    # (ATen's addbmm_out expands the input to (batch1.size(1), batch2.size(2)) before any check)
    F.expand_check(x.shape, (C.size_at(b1.shape, 1), C.size_at(b2.shape, 2)), x.dtype)
    for name, v in (("batch1", b1), ("batch2", b2)):
        if v.ndim != 3:
            raise GradcliError(f"{name} must be a 3D tensor")
    if b1.shape[0] != b2.shape[0]:
        raise GradcliError(
            "batch1 and batch2 must have same number of batches, got "
            f"{b1.shape[0]} and {b2.shape[0]}"
        )
    if b1.shape[2] != b2.shape[1]:
        raise GradcliError(
            f"Incompatible matrix sizes for bmm ({b1.shape[1]}x{b1.shape[2]} and "
            f"{b2.shape[1]}x{b2.shape[2]})"
        )
    n, m = b1.shape[1], b2.shape[2]
    A.size_check((n, m), "addbmm's result")
    from .linalg import _plain_scale

    if b1.shape[0] and len({x.dtype, b1.dtype, b2.dtype}) > 1:
        # (ATen adds each product by addmm_ into the result: its checks, in its words)
        F.addmm_dtypes_checked(x, b1, b2)
    if _plain_scale(b1, b2, alpha) and x.dtype == b1.dtype and _plain_number(beta):
        # one record, ATen's sums and addbmm's rules (each batch's gradient one bmm of the
        # expanded gradient, then times alpha; the input's g times beta)
        base = F.expand(x, (n, m))
        out = apply(L.addbmm, base, b1, b2, alpha=alpha, beta=beta, label="AddbmmBackward0")
        return A.named(out, "AddbmmBackward0")
    if beta == 0:
        out: Tensor = Tensor(np.zeros((n, m), np.result_type(b1.dtype, b2.dtype)))
    else:
        out = A.add_t(
            x if beta == 1 else A.mul_t(x, beta),
            Tensor(np.zeros((n, m), np.result_type(b1.dtype, b2.dtype))),
        )
    if b1.shape[0] > 64:
        s = F.sum(F.bmm(b1, b2), 0)
        out = A.add_t(out, s if alpha == 1 else A.mul_t(s, alpha))
    else:
        for i in range(b1.shape[0]):
            p = A.matmul(b1[i], b2[i])
            out = A.add_t(out, p if alpha == 1 else A.mul_t(p, alpha))
        if (
            x.dtype == b1.dtype == b2.dtype
            and x.dtype in (np.float16, BF16)
            and _plain_number(alpha)
            and _plain_number(beta)
            and out.data.flags.writeable
            and b1.shape[0]
        ):
            _reduced_chain(out, x, b1, b2, float(beta), float(alpha))
    return A.named(out, "AddbmmBackward0")


def _reduced_chain(out: Tensor, x: Tensor, b1: Tensor, b2: Tensor, beta: float, alpha: float):
    """addbmm's value for float16 and bfloat16 batches: ATen's addmm_ of each product into the
    result in turn, beta * result + alpha * product rounded once in each
    (`core.bf16.reduced_addmm`; where its kernels are not modelled, each step's certain answer
    or a refusal, `core.bf16.bf16_product`)."""
    from ..core import bf16

    dt = x.dtype
    f32 = np.float32
    acc = np.broadcast_to(x.data, out.data.shape)
    for i in range(b1.shape[0]):
        be = beta if i == 0 else 1.0
        step = bf16.reduced_addmm(b1.data[i], b2.data[i], acc, alpha, be)
        if step is None:
            c = None if be == 0 else acc.astype(f32)
            exact = bf16.bf16_product(
                b1.data[i].astype(f32),
                b2.data[i].astype(f32),
                c,
                alpha,
                1.0 if c is None else be,
                dt,
            )
            step = bf16._round_to(exact.astype(f32), dt)
        acc = step
    out.data[...] = acc


def renorm(input: Any, p: Any, dim: Any, maxnorm: Any) -> Tensor:  # noqa: A002
    """Each slice along `dim` whose p-norm exceeds maxnorm scaled by maxnorm / (norm + 1e-7)
    (in the input's precision); the gradient goes through the norm as PyTorch's does."""
    from .args import check_dim, parsed_number
    from .linalg import vector_norm

    x = A.tensor_arg(input, "input")
    p, maxnorm = parsed_number(p), parsed_number(maxnorm)
    if float(maxnorm) < 0:
        raise GradcliError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    if float(p) <= 0:
        raise GradcliError("renorm: non-positive-norm not supported")
    if x.ndim <= 1:
        raise GradcliError(f"renorm: input needs at least 2 dimensions, got {x.ndim} dimensions")
    d = check_dim(dim, x.ndim)
    if x.dtype in (np.float16, np.float32, np.float64):
        from ..core.op import apply
        from ..ops.renorm import renorm as renorm_op

        return apply(renorm_op, x, p=float(p), dim=d, maxnorm=float(maxnorm))
    others = tuple(i for i in range(x.ndim) if i != d)
    norm = vector_norm(x, p, others, True)
    dt = x.dtype
    with no_grad():
        big = Tensor(norm.data > dt.type(maxnorm))
    factor = F.where(
        big,
        A.div_t(Tensor(np.asarray(maxnorm, dt)), A.add_t(norm, Tensor(np.asarray(1e-7, dt)))),
        Tensor(np.ones((), dt)),
    )
    return A.named(A.mul_t(x, factor), "RenormBackward0")


def corrcoef(input: Any) -> Tensor:  # noqa: A002
    """Pearson correlation of the rows (variables) over the columns (observations): the
    covariance divided by the standard deviations on both sides, clipped to [-1, 1]."""
    x = A.tensor_arg(input, "input")
    if x.ndim > 2:
        raise GradcliError(
            "corrcoef(): expected input to have two or fewer dimensions but got an input "
            f"with {x.ndim} dimensions"
        )
    x = A.floating(x)
    x2 = F.reshape(x, (1, -1)) if x.ndim < 2 else x
    nobs = x2.shape[1]
    avg = F.mean(x2, 1)
    xm = A.sub_t(x2, F.unsqueeze(avg, 1))
    c = A.div_t(A.matmul(xm, F.permute(xm, (1, 0))), nobs - 1)
    if x.ndim < 2 or x2.shape[0] == 1:
        c = F.reshape(c, ())
        return A.div_t(c, c)
    from .composite import diag

    sd = A.sqrt(diag(c))
    c = A.div_t(c, F.reshape(sd, (-1, 1)))
    c = A.div_t(c, F.reshape(sd, (1, -1)))
    return F.clamp(c, -1, 1)


# --- embedding bag ---------------------------------------------------------------------------


def _shape_text(t: Tensor) -> str:
    return f"torch.Size([{', '.join(map(str, t.shape))}])"


def embedding_bag(
    input: Any,  # noqa: A002
    weight: Any,
    offsets: Any = None,
    max_norm: Any = None,
    norm_type: float = 2,
    scale_grad_by_freq: bool = False,
    mode: str = "mean",
    sparse: bool = False,
    per_sample_weights: Any = None,
    include_last_offset: bool = False,
    padding_idx: Any = None,
) -> Tensor:
    """The rows of `weight` the indices name, reduced bag by bag (sum, mean or max): a 2-D
    input is one bag per row; a 1-D one is cut at `offsets`. Sums add the rows one at a time
    in the bag's order (PyTorch's CPU kernel), a mean divides the sum by the bag's count (the
    rows at padding_idx left out), max takes the first largest per column; an empty bag
    gives zeros."""
    from ..base.errors import NotSupported
    from .constructors import zeros
    from .rearrange import index_select
    from .scatter import index_add

    x = A.tensor_arg(input, "input")
    w = A.tensor_arg(weight, "weight")
    if w.dtype == np.int64 and x.dtype.kind == "f":
        # the old order, embedding_bag(weight, input): PyTorch warns and swaps them
        hooks.warn(
            "Argument order of nn.functional.embedding_bag was changed. Usage "
            "`embedding_bag(weight, input, ...)` is deprecated, and should now be "
            "`embedding_bag(input, weight, ...)`."
        )
        x, w = w, x
    if max_norm is not None or scale_grad_by_freq:
        raise NotSupported(
            "embedding_bag with max_norm or scale_grad_by_freq is not supported by gradcli",
            hint="renormalise the weight yourself, or use nn.Embedding and a reduction",
        )
    if w.ndim != 2:
        raise GradcliError(f"weight has to be a 2D Tensor, but got Tensor of dimension {w.ndim}")
    if x.dtype.kind not in "iu":
        raise GradcliError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got {LEGACY_TYPES[x.dtype]} instead (while "
            "checking arguments for embedding_bag)"
        )
    if sparse:
        from .nnfunctional import sparse_gradient_check

        sparse_gradient_check(w)
    if per_sample_weights is not None:
        psw = A.tensor_arg(per_sample_weights, "per_sample_weights")
        if psw.shape != x.shape:
            raise GradcliError(
                f"embedding_bag: If per_sample_weights ({_shape_text(psw)}) is not None, then "
                f"it must have the same shape as the input ({_shape_text(x)})"
            ).mirror("ValueError")
    if x.ndim == 2:
        if offsets is not None:
            kind = "torch.Tensor" if isinstance(offsets, Tensor) else type(offsets).__name__
            raise GradcliError(
                "if input is 2D, then offsets has to be None, as input is treated is a "
                "mini-batch of fixed length sequences. However, found offsets of type "
                f"<class '{kind}'>"
            ).mirror("ValueError")
        nb, per = x.shape
        starts = np.arange(nb, dtype=np.int64) * per
        ends = starts + per
    elif x.ndim == 1:
        if offsets is None:
            raise GradcliError("offsets has to be a 1D Tensor but got None").mirror("ValueError")
        off = A.tensor_arg(offsets, "offsets")
        if off.ndim != 1:
            raise GradcliError("offsets has to be a 1D Tensor").mirror("ValueError")
        o = off.data.astype(np.int64)
        if o.size and o[0] != 0:
            # ATen streams offsets[0] as a 0-d tensor: its value, then its type line (the
            # indices and offsets share a type: int32 where both are, else both become int64)
            kind = "Int" if x.dtype == np.int32 and off.dtype == np.int32 else "Long"
            raise GradcliError(
                "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to "
                f"start from position 0. However, got {o[0]}\n[ torch.{kind}Tensor{{}} ]"
            )
        if o.size and o[-1] > x.shape[0]:
            raise GradcliError(
                f"offsets[-1] can not be greater than input's length {x.shape[0]} but got "
                f"offsets[-1] of {o[-1]}"
            )
        if np.any(np.diff(o) < 0):
            raise GradcliError("embedding_bag: offsets must be non-decreasing")
        if include_last_offset:
            starts, ends = o[:-1], o[1:]
        else:
            starts, ends = o, np.append(o[1:], x.shape[0])
        nb = len(starts)
    else:
        raise GradcliError(
            f"input has to be 1D or 2D Tensor, but got Tensor of dimension {x.ndim}"
        ).mirror("ValueError")
    if mode not in ("sum", "mean", "max"):
        raise GradcliError("mode has to be one of sum, mean or max").mirror("ValueError")
    if per_sample_weights is not None and mode != "sum":
        raise GradcliError(
            "embedding_bag: per_sample_weights was not None. per_sample_weights is only "
            f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
            "GitHub."
        ).mirror("NotImplementedError")
    idx = x.data.reshape(-1).astype(np.int64)
    n = w.shape[0]
    bad = np.nonzero((idx < 0) | (idx >= n))[0]
    if bad.size:
        raise GradcliError(
            f"Index {bad[0]} of input takes value {idx[bad[0]]} which is not in the valid "
            f"range [0, {n})"
        )
    if padding_idx is not None:
        pad = int(padding_idx) % n if -n <= int(padding_idx) < n else None
        if pad is None:
            raise GradcliError("padding_idx must be within the number of embeddings")
    else:
        pad = -1
    dim = w.shape[1]
    A.size_check((nb, dim), "embedding_bag's result")
    A.size_check((idx.size, dim), "embedding_bag's rows")
    bag = np.repeat(np.arange(nb, dtype=np.int64), ends - starts)
    pos = np.concatenate([np.arange(s, e) for s, e in zip(starts, ends)]) if nb else bag
    pos = pos.astype(np.int64)
    keep = idx[pos] != pad
    pos, bag = pos[keep], bag[keep]
    counts = np.bincount(bag, minlength=nb)
    if mode == "max":
        vals = w.data[idx[pos]]
        have = counts > 0
        pick = np.zeros((nb, dim), np.int64)
        if pos.size:
            first = np.concatenate([[0], np.cumsum(counts)[:-1]])[have]
            top = np.maximum.reduceat(vals, first, axis=0)
            k = np.arange(pos.size)[:, None]
            owner = np.searchsorted(first, np.arange(pos.size), "right") - 1
            cand = np.where(vals == top[owner], k, pos.size)
            winner = np.minimum.reduceat(cand, first, axis=0)
            winner = np.where(winner == pos.size, first[:, None], winner)  # a NaN maximum
            pick[have] = idx[pos][winner]
        flat = pick.reshape(-1)
        got = index_select(F.reshape(w, (-1,)), 0, Tensor(flat * dim + np.tile(np.arange(dim), nb)))
        # an empty bag is +0.0 whatever row 0 holds (a product by 0 gave -0.0, or NaN for inf)
        out = F.where(Tensor(have[:, None]), F.reshape(got, (nb, dim)), 0.0)
        return A.named(out, "EmbeddingBagBackward0")
    rows = index_select(w, 0, Tensor(idx[pos]))
    if per_sample_weights is not None:
        wts = F.reshape(psw, (-1,))
        rows = A.mul_t(rows, F.unsqueeze(index_select(wts, 0, Tensor(pos)), 1))
    out = index_add(zeros((nb, dim), dtype=rows.dtype), 0, Tensor(bag), rows)
    if mode == "mean":
        out = A.div_t(out, Tensor(np.maximum(counts, 1).astype(w.dtype)[:, None]))
    return A.named(out, "EmbeddingBagBackward0")


# --- max unpooling ----------------------------------------------------------------------------


def _tuple_of(v: Any, n: int) -> tuple[int, ...]:
    if isinstance(v, (list, tuple)):
        return tuple(int(a) for a in v)
    return (int(v),) * n


def _unpool_size(x: Tensor, k: tuple, s: tuple, p: tuple, output_size: Any) -> tuple:
    """PyTorch's `_unpool_output_size`: the default (in - 1) * stride + kernel - 2 * padding,
    or the size asked for, which must lie within a stride of it."""
    n = len(k)
    default = [(x.shape[x.ndim - n + d] - 1) * s[d] + k[d] - 2 * p[d] for d in range(n)]
    if output_size is None:
        return tuple(default)
    out = tuple(int(v) for v in output_size)
    shown = f"({', '.join(map(str, out))}{',' if len(out) == 1 else ''})"
    if isinstance(output_size, list):
        shown = str(list(out))
    if len(out) == n + 2:
        out = out[2:]
        shown = f"({', '.join(map(str, out))}{',' if len(out) == 1 else ''})"
    if len(out) != n:
        raise GradcliError(
            f"output_size should be a sequence containing {n} or {n + 2} elements, but it has "
            f"a length of '{len(out)}'"
        ).mirror("ValueError")
    for d in range(n):
        lo, hi = default[d] - s[d], default[d] + s[d]
        if not lo < out[d] < hi:
            raise GradcliError(
                f'invalid output_size "{shown}" (dim {d} must be between {lo} and {hi})'
            ).mirror("ValueError")
    return out


def _unpool2d(x: Tensor, idx: Any, size: tuple) -> Tensor:
    """x's values put at the flat positions `idx` of zero planes of `size` (PyTorch's
    max_unpool2d kernel, its checks and words)."""
    from .constructors import zeros
    from .scatter import scatter

    i = A.tensor_arg(idx, "indices")
    if i.dtype != np.int64:
        raise GradcliError(
            f"elements in indices should be type int64 but got: {scalar_type_name(i.dtype)}"
        )
    if i.shape != x.shape:
        raise GradcliError(
            "Expected shape of indices to be same as that of the input tensor "
            f"([{', '.join(map(str, x.shape))}]) but got indices tensor with shape: "
            f"[{', '.join(map(str, i.shape))}]"
        )
    if x.ndim not in (3, 4):
        raise GradcliError(
            "Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with "
            f"{x.ndim} dimensions."
        )
    oh, ow = size
    lead = tuple(x.shape[:-2])
    A.size_check(lead + (oh, ow), "max_unpool2d's output")
    flat_idx = i.data.reshape(lead + (-1,))
    bad = np.nonzero((flat_idx < 0) | (flat_idx >= oh * ow))
    if bad[0].size:  # the last one, as PyTorch's kernel (each bad index overwrites the last)
        v = flat_idx[tuple(b[-1] for b in bad)]
        raise GradcliError(
            f"Found an invalid max index: {v} (output volumes are of size {oh}x{ow})"
        )
    canvas = zeros(lead + (oh * ow,), dtype=x.dtype)
    out = scatter(canvas, len(lead), Tensor(flat_idx), F.reshape(x, lead + (-1,)))
    return A.named(F.reshape(out, lead + (oh, ow)), "MaxUnpool2DBackward0")


def max_unpool2d(
    input: Any,  # noqa: A002
    indices: Any,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    output_size: Any = None,
) -> Tensor:
    """The inverse of max_pool2d(return_indices=True): each value back at its index, zeros
    elsewhere; the gradient is the output's gradient read at the indices."""
    x = A.tensor_arg(input, "input")
    k = _tuple_of(kernel_size, 2)
    s = _tuple_of(stride, 2) if stride is not None else k
    p = _tuple_of(padding, 2)
    if x.ndim < 2:
        raise GradcliError(
            "Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with "
            f"{x.ndim} dimensions."
        )
    size = _unpool_size(x, k, s, p, output_size)
    return _unpool2d(x, indices, size)


def max_unpool1d(
    input: Any,  # noqa: A002
    indices: Any,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    output_size: Any = None,
) -> Tensor:
    """max_unpool2d of the input with a trailing axis of 1 (PyTorch's own way)."""
    x = A.tensor_arg(input, "input")
    i = A.tensor_arg(indices, "indices")
    k = _tuple_of(kernel_size, 1)
    s = _tuple_of(stride, 1) if stride is not None else k
    p = _tuple_of(padding, 1)
    if x.ndim < 1:
        raise GradcliError(
            "Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with "
            "1 dimensions."
        )
    size = _unpool_size(x, k, s, p, output_size) + (1,)
    out = _unpool2d(F.unsqueeze(x, -1), Tensor(i.data[..., None]), size)
    return A.named(F.squeeze(out, -1), "SqueezeBackward1")


def max_unpool3d(
    input: Any,  # noqa: A002
    indices: Any,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    output_size: Any = None,
) -> Tensor:
    """The inverse of max_pool3d(return_indices=True): each value back at its flat position
    in the D x H x W volume, zeros elsewhere (PyTorch's max_unpooling3d checks and words)."""
    from .constructors import zeros
    from .scatter import scatter

    x = A.tensor_arg(input, "input")
    i = A.tensor_arg(indices, "indices")
    k = _tuple_of(kernel_size, 3)
    st = _tuple_of(stride, 3) if stride is not None else k
    p = _tuple_of(padding, 3)
    if i.dtype != np.int64:
        raise GradcliError("elements in indices should be type int64")
    if x.ndim not in (4, 5):
        raise GradcliError(
            "Input to max_unpooling3d should be a 4d or 5d Tensor, but got a tensor with "
            f"{x.ndim} dimensions."
        )
    if i.shape != x.shape:
        raise GradcliError(
            "Expected shape of indices to be same as that of the input tensor "
            f"([{', '.join(map(str, x.shape))}]) but got indices tensor with shape: "
            f"[{', '.join(map(str, i.shape))}]"
        )
    if any(v <= 0 for v in st):
        raise GradcliError(f"strides should be greater than zero, but got stride: {list(st)}")
    od, oh, ow = _unpool_size(x, k, st, p, output_size)
    lead = tuple(x.shape[:-3])
    A.size_check(lead + (od, oh, ow), "max_unpool3d's output")
    flat_idx = i.data.reshape(lead + (-1,))
    bad = np.nonzero((flat_idx < 0) | (flat_idx >= od * oh * ow))
    if bad[0].size:  # the last one, as PyTorch's kernel
        v = flat_idx[tuple(b[-1] for b in bad)]
        raise GradcliError(
            f"Found an invalid max index: {v} (output volumes are of size {od}x{oh}x{ow})"
        )
    canvas = zeros(lead + (od * oh * ow,), dtype=x.dtype)
    out = scatter(canvas, len(lead), Tensor(flat_idx), F.reshape(x, lead + (-1,)))
    return A.named(F.reshape(out, lead + (od, oh, ow)), "MaxUnpool3DBackward0")


# --- power-average pooling ----------------------------------------------------------------------


def _lp_pool(
    d: int, x: Any, norm_type: Any, kernel_size: Any, stride: Any, ceil_mode: Any
) -> Tensor:
    """PyTorch's lp_poolNd: avg_pool of x ** p over the windows, times the window's size,
    to the power 1 / p, through sign(s) * relu(|s|) (a window of zeros gets a zero
    gradient); p = +-inf is the max (min) of |x|."""
    from . import names as N
    from .nnfunctional import avg_pool1d, avg_pool2d, avg_pool3d, max_pool1d, max_pool2d
    from .nnfunctional import max_pool3d as max_pool3d_

    t = N.FUNCTIONS
    x = A.tensor_arg(x, "input")
    if d == 1:
        if isinstance(kernel_size, bool) or not isinstance(kernel_size, (int, np.integer)):
            raise GradcliError(
                f"mul(): argument 'other' (position 1) must be Tensor, not {typename(kernel_size)}"
            ).mirror("TypeError")
        size = int(kernel_size)
    else:
        size = int(np.prod(_tuple_of(kernel_size, d), dtype=np.int64))
    if isinstance(norm_type, (int, float)) and abs(norm_type) == float("inf"):
        mp = {1: max_pool1d, 2: max_pool2d, 3: max_pool3d_}[d]
        if norm_type > 0:
            return mp(t["abs"](x), kernel_size, stride, 0, 1, ceil_mode)
        return A.neg(mp(A.neg(t["abs"](x)), kernel_size, stride, 0, 1, ceil_mode))
    pool = {1: avg_pool1d, 2: avg_pool2d, 3: avg_pool3d}[d]
    out = pool(t["pow"](x, norm_type), kernel_size, stride, 0, ceil_mode)
    kept = t["mul"](t["sign"](out), t["relu"](t["abs"](out)))
    return t["pow"](t["mul"](kept, size), 1.0 / norm_type)


def lp_pool1d(
    input: Any,  # noqa: A002
    norm_type: Any,
    kernel_size: Any,
    stride: Any = None,
    ceil_mode: bool = False,
) -> Tensor:
    return _lp_pool(1, input, norm_type, kernel_size, stride, ceil_mode)


def lp_pool2d(
    input: Any,  # noqa: A002
    norm_type: Any,
    kernel_size: Any,
    stride: Any = None,
    ceil_mode: bool = False,
) -> Tensor:
    return _lp_pool(2, input, norm_type, kernel_size, stride, ceil_mode)


def lp_pool3d(
    input: Any,  # noqa: A002
    norm_type: Any,
    kernel_size: Any,
    stride: Any = None,
    ceil_mode: bool = False,
) -> Tensor:
    return _lp_pool(3, input, norm_type, kernel_size, stride, ceil_mode)


# --- channel shuffle, pdist, triplet loss with a distance function ---------------------------


def channel_shuffle(input: Any, groups: Any) -> Tensor:  # noqa: A002
    """(N, g * k, *) -> channel i * k + j goes to j * g + i (ShuffleNet): the channels viewed
    (g, k), transposed, flattened back."""
    from .functional import permute

    x = A.tensor_arg(input, "input")
    if x.ndim <= 2:
        raise GradcliError(
            f"channel_shuffle expects input with > 2 dims, but got input with sizes {list(x.shape)}"
        )
    g = _factor(groups, "channel_shuffle", "groups") if not isinstance(groups, int) else groups
    if g <= 0:
        raise GradcliError(
            f"Number of groups to divide channels in must be positive. Value of groups:{g}"
        )
    c = x.shape[1]
    if c % g:
        raise GradcliError(
            f"Number of channels must be divisible by groups. Got {c} channels and {g} groups."
        )
    n, rest = x.shape[0], tuple(x.shape[2:])
    split = F.reshape(x, (n, g, c // g) + rest)
    order = (0, 2, 1) + tuple(range(3, split.ndim))
    out = F.reshape(permute(split, order), x.shape)
    return A.named(out, "ChannelShuffleBackward0")


def pdist(input: Any, p: Any = 2) -> Tensor:  # noqa: A002
    """The p-norm distances between the rows of an (N, M) input, for i < j in row order (the
    upper triangle of cdist(x, x) read row by row); PdistBackward0."""
    from ..core.op import apply
    from ..ops import matrices as M
    from ..ops import shape as S

    x = A.tensor_arg(input, "input")
    if x.ndim != 2:
        raise GradcliError(f"pdist only supports 2D tensors, got: {x.ndim}D")
    if x.dtype.kind != "f":
        raise GradcliError("pdist only supports floating-point dtypes")
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise GradcliError(f"pdist(): argument 'p' must be float, not {typename(p)}").mirror(
            "TypeError"
        )
    if p < 0:
        raise GradcliError("pdist only supports non-negative p values")
    if _GradMode.dual:
        from ..core import dual

        if dual.tangent(x) is not None:
            # (PyTorch's pdist is one op, _pdist_forward, with no forward derivative)
            raise dual.not_implemented("_pdist_forward")
    n, m = x.shape
    A.size_check((n, n, m), "pdist's differences")
    if p in (1, 2, np.inf) and x.dtype in (np.float32, np.float64):
        # ATen's kernels, their order (the last digits of its sums and gradients)
        return apply(M.pdist, x, p=float(p))
    rows, cols = np.triu_indices(n, 1)
    full = apply(M.cdist, x, x, p=float(p))
    return apply(S.index, full, idx=(rows, cols), label="PdistBackward0")


def triplet_margin_with_distance_loss(
    anchor: Any,
    positive: Any,
    negative: Any,
    *,
    distance_function: Any = None,
    margin: Any = 1.0,
    swap: Any = False,
    reduction: str = "mean",
) -> Tensor:
    """PyTorch's: max(margin + d(a, p) - d(a, n), 0), d torch.pairwise_distance unless given
    (any callable of two tensors: a function, a lambda, a module); `swap` takes the smaller
    of d(a, n) and d(p, n)."""
    from . import names as N

    t = N.FUNCTIONS
    if reduction not in ("mean", "sum", "none"):
        raise GradcliError(f"{reduction} is not a valid value for reduction").mirror("ValueError")
    if margin <= 0:
        raise GradcliError(f"margin must be greater than 0, got {margin}").mirror("ValueError")
    a, pos, neg = (
        A.tensor_arg(v, w)
        for v, w in ((anchor, "anchor"), (positive, "positive"), (negative, "negative"))
    )
    if not a.ndim == pos.ndim == neg.ndim:
        raise GradcliError(
            "The anchor, positive, and negative tensors are expected to have the same number "
            f"of dimensions, but got: anchor {a.ndim}D, positive {pos.ndim}D, and negative "
            f"{neg.ndim}D inputs"
        )
    dist = t["pairwise_distance"] if distance_function is None else distance_function
    dist_pos = dist(a, pos)
    dist_neg = dist(a, neg)
    if swap:
        dist_neg = t["minimum"](dist_neg, dist(pos, neg))
    loss = t["clamp_min"](t["sub"](t["add"](dist_pos, margin), dist_neg), 0)
    if reduction == "sum":
        return t["sum"](loss)
    if reduction == "mean":
        return t["mean"](loss)
    return loss


# --- multilabel margin loss -------------------------------------------------------------------


@legacy_reductions
def multilabel_margin_loss(
    input: Any,  # noqa: A002
    target: Any,
    size_average: Any = None,
    reduce: Any = None,  # noqa: A002
    reduction: str = "mean",
) -> Tensor:
    """Per sample: the target classes are the entries before the first -1; the loss is the
    sum over each of them (repeats counted again) and each non-target class i of
    max(0, 1 - (x[target] - x[i])), divided by the number of classes."""
    from .composite import gather

    x = A.floating(A.tensor_arg(input, "input"))
    t = A.tensor_arg(target, "target")
    r = reduction_arg(reduction)
    if x.ndim > 2 or (x.ndim == 2 and x.shape[1] == 0) or (x.ndim == 1 and x.shape[0] == 0):
        raise GradcliError(
            "Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
            f"[{', '.join(map(str, x.shape))}]"
        )
    if t.shape != x.shape and not (x.ndim == 0 and t.data.size == 1):
        raise GradcliError(
            f"inconsistent target size: [{', '.join(map(str, t.shape))}] for input of size: "
            f"[{', '.join(map(str, x.shape))}]"
        )
    if t.dtype != np.int64:
        raise GradcliError(f"expected scalar type Long but found {scalar_type_name(t.dtype)}")
    x2 = F.reshape(x, (1, -1)) if x.ndim < 2 else x
    nframe, dim = x2.shape
    A.size_check((nframe, dim, dim), "multilabel_margin_loss's pairs")
    tt = t.data.reshape(nframe, dim)
    if np.any((tt < -1) | (tt >= dim)):
        raise GradcliError("argument #2 'target' is out of range")
    stop = np.where((tt == -1).any(1), np.argmax(tt == -1, 1), dim)
    valid = np.arange(dim)[None, :] < stop[:, None]  # (n, a): target slot a is used
    slots = np.where(valid, tt, 0)
    is_target = np.zeros((nframe, dim), bool)
    rows = np.repeat(np.arange(nframe), dim)
    is_target[rows[valid.reshape(-1)], slots[valid]] = True
    mask = valid[:, :, None] & ~is_target[:, None, :]  # (n, a, i)
    picked = gather(x2, 1, Tensor(slots))  # (n, a)
    z = A.add_t(A.sub_t(1.0, F.unsqueeze(picked, 2)), F.unsqueeze(x2, 1))
    # PyTorch's kernel adds a pair's hinge only where z > 0 (a nan one, inf - inf, left out);
    # a product by the 0/1 mask kept the nan of left-out pairs
    h = F.where(Tensor(mask & (z.data > 0)), z, 0.0)
    loss = A.div_t(F.sum(h, (1, 2)), dim)
    if r == "none":
        out = F.reshape(loss, (nframe,) if x.ndim == 2 else ())
    elif r == "sum":
        out = F.sum(loss)
    else:
        out = F.mean(loss)
    out = A.named(out, "MultilabelMarginLossBackward0")
    # The value as ATen's CPU kernel computes it: each hinge in the input's dtype, added one by
    # one in double (target slot, then class), each sample's sum rounded to the dtype; `none`
    # divides it there, `sum` / `mean` add the samples' sums in double, divide by the classes
    # (and the samples) in double and round once.
    # (An empty batch: PyTorch's result is memory it never writes; gradcli's stays its own.)
    if nframe == 0:
        return out
    hinge = np.where(mask & (z.data > 0), z.data, 0).astype(np.float64).reshape(nframe, -1)
    sums = np.cumsum(hinge, axis=1)[:, -1].astype(x.dtype)
    if r == "none":
        exact = (sums / x.dtype.type(dim)).astype(x.dtype)
    else:
        total = float(np.cumsum(sums.astype(np.float64))[-1]) / dim
        exact = np.asarray(total / nframe if r == "mean" else total, dtype=x.dtype)
    out.data = exact.reshape(out.shape)
    return out


# --- linear algebra ----------------------------------------------------------------------------


def cholesky_solve(input: Any, input2: Any, upper: bool = False, *, out: Any = None) -> Tensor:  # noqa: N803
    """X with (L L^H) X = B given the Cholesky factor L (U^H U when upper): two triangular
    solves with the factor's triangle (the other triangle's entries pass the gradient as
    PyTorch's formula -(G X^T + X G^T) L does, but not into the value)."""
    from .composite import tril, triu
    from .linalg import _matrices, solve

    b = A.tensor_arg(input, "input")
    if b.ndim < 2:
        raise GradcliError(
            f"b should have at least 2 dimensions, but has {b.ndim} dimensions instead"
        )
    lm = A.tensor_arg(input2, "input2")
    if lm.ndim < 2:
        raise GradcliError(
            f"u should have at least 2 dimensions, but has {lm.ndim} dimensions instead"
        )
    if lm.shape[-1] != lm.shape[-2]:
        raise GradcliError(
            "A must be batches of square matrices, but they are "
            f"{lm.shape[-2]} by {lm.shape[-1]} matrices"
        )
    if lm.shape[-1] != b.shape[-2]:
        raise GradcliError(
            "Incompatible matrix sizes for cholesky_solve: each A matrix is "
            f"{lm.shape[-1]} by {lm.shape[-1]} but each b matrix is {b.shape[-2]} by "
            f"{b.shape[-1]}"
        )
    lm = _matrices(lm, "cholesky_solve")
    other = tril(lm, -1) if upper else triu(lm, 1)
    f = A.sub_t(lm, other.detach())  # the triangle's values; the gradient reaches all of L
    # (of a complex factor: A = L L^H, the conjugate transpose)
    ft = F.mH(f) if f.dtype.kind == "c" else F.mT(f)
    if upper:
        y = solve(ft, b)
        x = solve(f, y)
    else:
        y = solve(f, b)
        x = solve(ft, y)
    return A.named(x, "CholeskySolveBackward0")


def matrix_exp(input: Any) -> Tensor:  # noqa: N803
    """exp(A) as PyTorch computes it (one record, `ops.matrices.matrix_exp`: ATen's degree
    picked by the 1-norm, its optimised polynomials and scaling and squaring; the gradient the
    exponential of the block matrix [[A^T, G], [0, A^T]])."""
    from ..base import limits
    from ..ops import matrices as M
    from .linalg import _matrices

    a = _matrices(input, "linalg.matrix_exp")
    n = a.shape[-1]
    if n >= 2 and a.data.size:
        # the products it runs: at most 6 for the polynomial and one per squaring, each n^3,
        # and the gradient's on matrices twice as large
        norm = np.abs(a.data).astype(np.float64).sum(-2).max()
        s = M.mexp_squarings(np.asarray([norm], a.data.real.dtype), a.dtype)[0]
        squarings = int(s) if np.isfinite(s) else 0
        count = int(np.prod(a.shape[:-2], dtype=np.int64))
        limits.LINALG_WORK.check(
            count * n**3 * (6 + squarings), f"the work of linalg.matrix_exp on {list(a.shape)}"
        )
    return apply(M.matrix_exp, a)


def lstsq(
    input: Any,  # noqa: N803
    b: Any,
    rcond: Any = None,
    *,
    driver: Any = None,
) -> Any:
    """The least-squares solution as the default CPU driver 'gelsy' gives it (the
    minimum-norm one, pinv(A) B, with its rank; no residuals or singular values); 'gelsd'
    and 'gelss' also give the singular values and, for a tall full-rank A, the residuals.
    The graph (and so the gradient) is pinv(A) B's, as PyTorch's backward goes through
    pinv(A); on the avx2 kernel family the values of a tall or square full-rank system by
    'gelsy' or 'gels' are MKL's Householder QR solution (`_lstsq_qr_values`)."""
    from .linalg import ReturnTuple, _matrices, pinv

    fn = "torch.linalg.lstsq"
    a = _matrices(input, fn, square=False)
    b = A.tensor_arg(b, "B")
    if driver is not None and driver not in ("gels", "gelsy", "gelsd", "gelss"):
        raise GradcliError(f"{fn}: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    drv = driver or "gelsy"
    vector = b.ndim == a.ndim - 1
    bm = F.unsqueeze(b, -1) if vector else b
    if bm.ndim >= 2:
        # (ATen broadcasts the batch dimensions first: a vector B of the wrong length fails
        # there)
        ba, bb = a.shape[:-2], bm.shape[:-2]
        k = max(len(ba), len(bb))
        sa = (1,) * (k - len(ba)) + tuple(ba)
        sb = (1,) * (k - len(bb)) + tuple(bb)
        for i in range(k - 1, -1, -1):
            if sa[i] != sb[i] and 1 not in (sa[i], sb[i]):
                raise GradcliError(
                    f"The size of tensor a ({sa[i]}) must match the size of tensor b "
                    f"({sb[i]}) at non-singleton dimension {i}"
                )
    if bm.ndim < 2 or bm.shape[-2] != a.shape[-2]:
        raise GradcliError(f"{fn}: input.size(-2) should match other.size(-2)")
    m, n = a.shape[-2:]
    eps = float(np.finfo(a.dtype).eps)
    rc = eps * max(m, n) if rcond is None else float(rcond)
    p = pinv(a, rtol=rc) if drv != "gels" else pinv(a, rtol=0.0)
    x = A.matmul(p, bm)
    wide = np.complex128 if a.dtype.kind == "c" else np.float64
    sv = np.linalg.svd(a.data.astype(wide), compute_uv=False)
    rank_np = (sv > rc * sv[..., :1]).sum(-1) if sv.size else np.zeros(a.shape[:-2], np.int64)
    qtb = _lstsq_qr_values(a, bm, x, rank_np, drv)
    if vector:
        x = F.squeeze(x, -1)
    x = A.named(x, "LinalgLstsqBackward0")
    _lstsq_layout(x, vector, max(m, n))
    rank = Tensor(np.asarray(rank_np, np.int64))
    empty = Tensor(np.zeros((0,), a.data.real.dtype))  # (real, of a complex A too)
    singular = empty
    residuals = empty
    if drv in ("gelsd", "gelss"):
        singular = Tensor(sv.astype(a.data.real.dtype))  # (real, of a complex A too)
    if drv != "gelsy" and m > n and bool(np.all(rank_np == n)):
        r = A.sub_t(A.matmul(a, x if not vector else F.unsqueeze(x, -1)), bm)
        if r.dtype.kind == "c":  # (|r|^2, real)
            r = apply(E.abs, r)
        residuals = F.sum(A.mul_t(r, r), -2)
        if qtb is not None and drv == "gels":
            # ATen's: the squares of the rows of Q^T B below the solution's, summed down the
            # columns of LAPACK's column-major buffer (a sum along contiguous memory)
            tail = qtb[..., n:, :]
            squares = np.ascontiguousarray(np.swapaxes(tail * tail, -1, -2))
            residuals.data = F.sum(Tensor(squares), -1).data
        if vector:
            residuals = F.squeeze(residuals, -1)
    if drv == "gels":
        rank = Tensor(np.zeros((0,), np.int64))
    return ReturnTuple(
        "linalg_lstsq",
        ("solution", "residuals", "rank", "singular_values"),
        (x, residuals, rank, singular),
    )


def _lstsq_layout(x: Tensor, vector: bool, rows: int) -> None:
    """The solution as ATen returns it: the first n rows of LAPACK's column-major buffer of
    max(m, n) rows (B's copy, solved in place): strides (1, max(m, n)) for a matrix, a
    vector's batch rows max(m, n) apart."""
    from ..core.layout import column_major

    vals = np.array(x.data)
    n = vals.shape[-1] if vector else vals.shape[-2]
    if vector:
        buf = np.zeros(vals.shape[:-1] + (rows,), dtype=vals.dtype)
        buf[..., :n] = vals
        x.data = buf[..., :n]
    else:
        buf = column_major(np.zeros(vals.shape[:-2] + (rows, vals.shape[-1]), dtype=vals.dtype))
        buf[..., :n, :] = vals
        x.data = buf[..., :n, :]
    x._vc = x._base = None


def _lstsq_qr_values(a: Tensor, bm: Tensor, x: Tensor, rank: Any, drv: str) -> Any:
    """On the avx2 kernel family, the solution's values (`x`, computed through pinv(A) B for
    its graph) as MKL's ?gelsy / ?gels give them there for a tall or square A of full rank
    (`core.mklgels`: Householder QR, no pivoting); returns Q^T B (for gels' residuals), or
    None where the model does not apply (other drivers, wide or rank-deficient matrices,
    values LAPACK would rescale, sizes past its limits: `x` keeps the pinv values)."""
    from ..core import cpu, mklgels

    if not cpu.mkl_avx2() or drv not in ("gelsy", "gels") or a.dtype.kind != "f":
        return None
    if a.dtype.itemsize not in (4, 8):
        return None
    m, n = a.shape[-2:]
    k = bm.shape[-1]
    batch = np.broadcast_shapes(a.shape[:-2], bm.shape[:-2])
    count = int(np.prod(batch, dtype=np.int64))
    if not mklgels.fits(m, n, k) or count * m * n > mklgels.MAX_ELEMENTS or count == 0:
        return None
    ad = np.broadcast_to(a.data, batch + (m, n)).reshape(count, m, n)
    bd = np.broadcast_to(bm.data.astype(a.dtype), batch + (m, k)).reshape(count, m, k)
    full = np.broadcast_to(np.asarray(rank) == n, batch).reshape(count)
    xs = np.array(x.data, copy=True).reshape(count, n, k)
    qtb = np.zeros((count, m, k), a.dtype)
    for i in range(count):
        if not (full[i] and mklgels.in_range(ad[i])):
            return None
        if np.any(bd[i]) and not mklgels.in_range(bd[i]):
            return None
        xs[i], qtb[i] = mklgels.gels(ad[i], bd[i], i * m * n, i * m * k)
    x.data = xs.reshape(x.shape)
    return qtb.reshape(batch + (m, k))


# --- histogram -----------------------------------------------------------------------------------


def histogram(
    input: Any,  # noqa: A002
    bins: Any = 100,
    *more: Any,
    range: Any = None,  # noqa: A002
    weight: Any = None,
    density: bool = False,
    out: Any = None,
) -> Any:
    """(hist, bin_edges): `bins` (100 by default) equal bins over `range` (the input's min and
    max by default, widened by 0.5 each way when they are equal) or the given edges; each
    value counted (or its weight added) in the bin whose left edge it reaches, the last bin
    closed; values outside left out. `density` divides by the total and the bin widths. A call
    neither overload takes (float bins, a third positional argument, edges with a range) is
    the argument parser's TypeError."""
    from .linalg import ReturnTuple

    edges_given = isinstance(bins, Tensor)
    counted = isinstance(bins, (int, np.integer)) and not isinstance(bins, bool)
    outs = isinstance(out, (tuple, list)) and all(isinstance(o, Tensor) for o in out)
    if (
        more
        or not (edges_given or counted)
        or (edges_given and range is not None)
        or not (out is None or outs)
    ):
        raise _histogram_call_error(input, bins, more, range, weight, density, out)
    if out is not None and len(out) != 2:
        raise GradcliError(f"expected tuple of 2 elements but got {len(out)}").mirror("TypeError")
    if out is not None and out[0] is out[1]:  # (PyTorch's kernel fails an internal assert)
        raise NotSupported(
            "torch.histogram(out=(t, t)): one tensor for both outputs is not supported",
            hint="give two tensors: out=(torch.empty(0), torch.empty(0))",
        )
    x = _histogram_input(input)
    if edges_given and bins.ndim != 1:
        raise GradcliError(
            "torch.histogramdd: bins tensor should have one dimension, but got "
            f"{bins.ndim} dimensions in the bins tensor for dimension 0"
        )
    if weight is not None and A.tensor_arg(weight, "weight").shape != x.shape:
        raise GradcliError(
            "torch.histogramdd: if weight tensor is provided it should have the same shape "
            "as the input tensor excluding its innermost dimension"
        )
    if out is not None:  # (ATen's checks of the out tensors come before any counting)
        for o, what, tail in ((out[0], "hist", ""), (out[1], "bin_edges", " for dimension 0")):
            if o.dtype != x.dtype:
                raise GradcliError(
                    f"torch.histogram: input tensor and {what} tensor should have the same "
                    f"dtype, but got input {cpp_type_name(x.dtype)} and {what} "
                    f"{cpp_type_name(o.dtype)}{tail}"
                )
    hist, edges = _histogram_nd(
        x.data.reshape(-1, 1), [bins], None if range is None else list(range), weight, density
    )
    if out is not None:  # (the edges are written first, as ATen resizes them first)
        F.write_out(out[1], Tensor(edges[0]), "histogram")
        F.write_out(out[0], Tensor(hist), "histogram")
        return ReturnTuple("histogram_out", ("hist", "bin_edges"), (out[0], out[1]))
    outs = _no_derivative("histogram", (x, bins, weight), (Tensor(hist), Tensor(edges[0])))
    return ReturnTuple("histogram", ("hist", "bin_edges"), outs)


def _histogram_call_error(
    input: Any,  # noqa: A002
    bins: Any,
    more: tuple,
    range: Any,  # noqa: A002
    weight: Any,
    density: Any,
    out: Any,
) -> GradcliError:
    from . import callerrors
    from .torch_signatures import PARSER

    kwargs = {
        k: v
        for k, v in (("range", range), ("weight", weight), ("density", density), ("out", out))
        if v is not None and not (k == "density" and v is False)
    }
    options = PARSER["torch.histogram"].split("|")[1:]
    words = callerrors._invalid_combination("histogram", options, [input, bins, *more], kwargs)
    return GradcliError(
        words or "histogram() received an invalid combination of arguments",
        hint="bins: an int (100 by default, with range=(min, max)) or a 1-D tensor of edges",
    ).mirror("TypeError")


def histogramdd(
    input: Any,  # noqa: A002
    bins: Any = None,
    *,
    range: Any = None,  # noqa: A002
    weight: Any = None,
    density: bool = False,
) -> Any:
    """torch.histogramdd: the input's innermost dimension holds the D coordinates of a point;
    (hist, bin_edges) with one bin rule a dimension (histogram's), `bins` an int for all,
    one int or one edges tensor a dimension; `range` the flat [min0, max0, min1, ...]."""
    from .linalg import ReturnTuple

    x = _histogram_input(input)
    if x.ndim < 2:
        raise GradcliError(
            f"torch.histogramdd: input tensor should have at least 2 dimensions, but got {x.ndim}"
        )
    d = x.shape[-1]
    if isinstance(bins, (int, np.integer)) and not isinstance(bins, bool):
        per_dim: list[Any] = [bins] * d
    elif bins is None:
        from . import callerrors
        from .torch_signatures import PARSER

        options = PARSER["torch.histogramdd"].split("|")[1:]
        words = callerrors._invalid_combination("histogramdd", options, [input], {})
        raise GradcliError(
            words or "histogramdd() received an invalid combination of arguments",
            hint="give bins: an int for every dimension, a list of ints, or a list of edges",
        ).mirror("TypeError")
    elif isinstance(bins, (list, tuple)):
        per_dim = list(bins)
        if len(per_dim) != d:
            raise GradcliError(
                "histogramdd: The size of bins must be equal to the innermost dimension of the "
                "input."
            )
    else:
        raise GradcliError(
            "histogramdd() received an invalid combination of arguments - got bins of type "
            f"{typename(bins)}",
            hint="give bins as an int, a list of ints, or a list of 1-D tensors of edges",
        ).mirror("TypeError")
    if range is not None and len(range) != 2 * d:
        raise GradcliError(
            f"torch.histogramdd: for a {d}-dimensional histogram range should have {2 * d} "
            f"elements, but got {len(range)}"
        )
    if weight is not None and A.tensor_arg(weight, "weight").shape != x.shape[:-1]:
        raise GradcliError(
            "torch.histogramdd: if weight tensor is provided it should have the same shape as "
            f"the input tensor excluding its innermost dimension, but got input with shape "
            f"{list(x.shape)} and weight with shape {list(weight.shape)}"
        )
    hist, edges = _histogram_nd(
        x.data.reshape(-1, d), per_dim, None if range is None else list(range), weight, density
    )
    # (ATen's: int bins, the edges from one operator and the counts from another; tensor bins,
    # the counts from a third and the bins tensors themselves as the edges)
    if all(isinstance(b, (int, np.integer)) for b in per_dim):
        shown = _no_derivative("_histogramdd_bin_edges", (x, weight), tuple(map(Tensor, edges)))
        (counts,) = _no_derivative("_histogramdd_from_bin_cts", (x, weight), (Tensor(hist),))
    else:
        shown = tuple(
            b if isinstance(b, Tensor) and b.dtype == e.dtype else Tensor(e)
            for b, e in zip(per_dim, edges)
        )
        (counts,) = _no_derivative(
            "_histogramdd_from_bin_tensors", (x, *per_dim, weight), (Tensor(hist),)
        )
    return ReturnTuple("histogramdd", ("hist", "bin_edges"), (counts, shown))


def _no_derivative(aten: str, args: tuple, outs: tuple) -> tuple:
    """The results of an operation PyTorch gives no derivative (histogram, histogramdd): where
    grad mode is on and a tensor argument requires grad, they require grad through one node,
    NotImplemented, whose backward is PyTorch's error."""
    ins = [t for t in args if isinstance(t, Tensor)]
    if not (_GradMode.enabled and any(t.requires_grad for t in ins)):
        return outs
    from ..ops.custom import custom_apply

    def raiser(*grads: Any) -> Any:
        raise GradcliError(
            f"derivative for aten::{aten} is not implemented",
            hint="a histogram's counts and edges have no gradient in PyTorch: detach the "
            "input (x.detach()) or compute a differentiable soft histogram",
        ).mirror("RuntimeError")

    return tuple(
        custom_apply(
            aten, ins, lambda: outs, raiser, label="torch::autograd::NotImplemented", program=False
        )
    )


def _histogram_input(input: Any) -> Tensor:  # noqa: A002
    x = A.tensor_arg(input, "input")
    if x.dtype.kind != "f":
        raise GradcliError(
            f"\"histogramdd\" not implemented for '{scalar_type_name(x.dtype)}'"
        ).mirror("NotImplementedError")
    return x


def _histogram_nd(
    points: np.ndarray,
    bins: list[Any],
    range: Any,
    weight: Any,
    density: bool,  # noqa: A002
) -> tuple[np.ndarray, list[np.ndarray]]:
    """The counts of points (N, D) in the bins of each dimension, and each dimension's edges."""
    dt = points.dtype
    edges, pos = [], []
    inside = np.ones(points.shape[0], bool)
    for dim, b in enumerate(bins):
        r = None if range is None else range[2 * dim : 2 * dim + 2]
        e, p, ins = _bin_positions(points[:, dim], b, r, dt, dim)
        edges.append(e)
        pos.append(p)
        inside &= ins
    A.size_check(tuple(e.size - 1 for e in edges), "histogramdd's bins")
    hist = np.zeros(tuple(e.size - 1 for e in edges), dt)
    if weight is not None:
        wv = A.tensor_arg(weight, "weight").data.reshape(-1).astype(dt)
    else:
        wv = np.ones(points.shape[0], dt)
    np.add.at(hist, tuple(p[inside] for p in pos), wv[inside])
    if density:
        # (ATen: the total first, then each dimension's widths in turn)
        hist = (hist / hist.sum(dtype=dt)).astype(dt)
        for dim, e in enumerate(edges):
            shape = [1] * len(edges)
            shape[dim] = e.size - 1
            hist = (hist / np.diff(e).astype(dt).reshape(shape)).astype(dt)
    return hist, [e.astype(dt).copy() for e in edges]


def _bin_positions(
    v: np.ndarray,
    bins: Any,
    range: Any,
    dt: np.dtype,
    dim: int,  # noqa: A002
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One dimension's edges, each value's bin and whether it is inside them."""
    from .constructors import _linspace

    if isinstance(bins, Tensor):
        edges = bins.data.astype(dt)
        nb = edges.size - 1
        if nb < 1:
            raise GradcliError(
                "torch.histogram(): bins tensor should have at least 1 element, but got "
                f"{edges.size}"
            )
        inside = (v >= edges[0]) & (v <= edges[-1])
        pos = np.searchsorted(edges, v, side="right") - 1
        return edges, np.clip(np.minimum(pos, nb - 1), 0, nb - 1), inside
    nb = C.int_arg(bins, "bins")
    if nb <= 0:
        raise GradcliError(f"torch.histogram(): bins must be > 0, but got {nb} for dimension {dim}")
    A.size_check((nb + 1,), "histogram's bins")
    if range is not None:
        lo, hi = float(range[0]), float(range[1])
    elif v.size == 0:
        lo, hi = 0.0, 1.0  # (numpy's default for no values)
    else:  # (ATen's aminmax: a NaN anywhere makes both NaN)
        lo, hi = float(v.min()), float(v.max())
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise GradcliError(
            f"torch.histogramdd: dimension {dim}'s range [{lo:g}, {hi:g}] is not finite"
        )
    if lo > hi:
        raise GradcliError(
            f"torch.histogramdd: min should not exceed max, but got min {lo:g} max "
            f"{hi:g} for dimension {dim}"
        )
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    edges = np.asarray(_linspace(lo, hi, nb + 1, dt), dt)
    lo_t, hi_t = dt.type(edges[0]), dt.type(edges[-1])
    inside = (v >= lo_t) & (v <= hi_t)
    with np.errstate(all="ignore"):
        raw = (v - lo_t) * dt.type(nb) / (hi_t - lo_t)
    pos = np.where(inside, raw, 0).astype(np.int64)
    pos = np.clip(pos, 0, nb)
    # the bin's own edges decide where the division rounded across one
    pos = np.where((pos > 0) & (v < edges[np.clip(pos, 0, nb)]), pos - 1, pos)
    pos = np.where((pos < nb - 1) & (v >= edges[np.clip(pos + 1, 0, nb)]), pos + 1, pos)
    return edges, np.minimum(pos, nb - 1), inside


# --- covariance, rank and condition number ---


def cov(
    input: Any,  # noqa: A002
    *,
    correction: Any = 1,
    fweights: Any = None,
    aweights: Any = None,
) -> Tensor:
    """The covariance of the rows (variables) over the columns (observations), as PyTorch's
    composition: the (weighted) mean subtracted, xm @ (w xm)^T divided by the weight total
    minus the correction (0 when that is not positive, with PyTorch's warning)."""
    x = A.tensor_arg(input, "input")
    if x.ndim > 2:
        raise GradcliError(
            "cov(): expected input to have two or fewer dimensions but got an input with "
            f"{x.ndim} dimensions"
        )
    x = A.floating(x)
    x2 = F.reshape(x, (1, -1)) if x.ndim < 2 else x
    nobs = x2.shape[1]
    w: Tensor | None = None
    for name, wt in (("fweights", fweights), ("aweights", aweights)):
        if wt is None:
            continue
        t = A.tensor_arg(wt, name)
        if t.ndim > 1:
            raise GradcliError(
                f"cov(): expected {name} to have one or fewer dimensions but got {name} with "
                f"{t.ndim} dimensions"
            )
        if t.data.size != nobs:
            raise GradcliError(
                f"cov(): expected {name} to have the same numel as there are observations in "
                f"the input but got {t.data.size} != {nobs}"
            )
        if name == "fweights" and t.dtype.kind not in "iu":
            raise GradcliError("cov(): expected fweights to have integral dtype")
        if np.any(t.data < 0):
            raise GradcliError(f"cov(): {name} cannot be negative")
        t = Tensor(t.data.astype(x.dtype)) if name == "fweights" else t
        w = t if w is None else A.mul_t(w, t)
    if w is None:
        wsum: Any = Tensor(np.asarray(nobs, x.dtype))
        avg = A.div_t(F.sum(x2, 1), wsum)
    else:
        wsum = F.sum(w)
        avg = A.div_t(F.sum(A.mul_t(x2, w), 1), wsum)
    if w is None or aweights is None:
        norm = A.sub_t(wsum, float(correction)) if correction != 0 else wsum
    else:
        aw = A.tensor_arg(aweights, "aweights")
        norm = (
            wsum
            if correction == 0
            else A.sub_t(wsum, A.div_t(A.mul_t(F.sum(A.mul_t(w, aw)), float(correction)), wsum))
        )
    if float(np.asarray(norm.data)) <= 0:
        hooks.warn(
            "cov(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "number of observations."
        )
        norm = Tensor(np.zeros((), x.dtype))
    xm = A.sub_t(x2, F.unsqueeze(avg, 1))
    other = xm if w is None else A.mul_t(xm, w)
    c = A.div_t(A.matmul(xm, F.permute(other, (1, 0))), norm)
    return A.named(F.squeeze(c), "SqueezeBackward0")


def matrix_rank(
    input: Any,  # noqa: N803
    tol: Any = None,
    hermitian: bool = False,
    *,
    atol: Any = None,
    rtol: Any = None,
    out: Any = None,
) -> Tensor:
    """The number of singular values above max(atol, rtol * the largest) (rtol defaults to
    eps * max(m, n) when atol is not given, else 0): an int64 tensor, no gradient."""
    from ..ops import matrices as M
    from .linalg import _matrices, _tolerance_batch, _tolerances

    a = _matrices(input, "torch.linalg.matrix_rank", square=False)
    if tol is not None:
        atol, rtol = tol, 0.0
    at, rt = _tolerances(a, atol, rtol, "torch.linalg.matrix_rank")
    _tolerance_batch(a, (at, rt), "torch.linalg.matrix_rank")  # (ATen's shape checks)
    if a.data.size == 0:  # (ATen's early return: the tolerances' shapes do not enter)
        return Tensor(np.zeros(a.shape[:-2], np.int64))
    if hermitian:
        s = np.abs(np.linalg.eigvalsh(a.data))
    else:
        s = M.np_svd(a.data, compute_uv=False)
    top = s.max(-1, keepdims=True)
    return Tensor((s > np.maximum(at, rt * top)).sum(-1).astype(np.int64))


def cond(input: Any, p: Any = None, *, out: Any = None) -> Tensor:  # noqa: N803
    """The condition number: the ratio of the extreme singular values for p None, 2 or -2;
    otherwise ||A||_p ||A^-1||_p (inf for a singular matrix), as PyTorch computes them."""
    from .linalg import _matrices, inv, matrix_norm, svdvals
    from .rearrange import narrow

    a = _matrices(input, "linalg.cond", square=p not in (None, 2, -2))
    if p in (None, 2, -2):
        s = svdvals(a)
        k = s.shape[-1]
        big, small = narrow(s, -1, 0, 1), narrow(s, -1, k - 1, 1)
        r = A.div_t(small, big) if p == -2 else A.div_t(big, small)
        return A.named(F.squeeze(r, -1), "SqueezeBackward1")
    if p not in ("fro", "nuc", float("inf"), float("-inf"), 1, -1):
        raise GradcliError(f"linalg.cond got an invalid norm type: {p}")
    from .elementwise import nan_to_num
    from .linalg import _info_zero
    from .scatter import _in_place, masked_fill

    if p == "nuc":
        # ATen's: the sums of the singular values and of their reciprocals (a singular
        # matrix gives inf, or nan for 0 * inf)
        s = svdvals(a)
        return A.mul_t(F.sum(s, -1), F.sum(A.div_t(1, s), -1))
    # ATen's: inv_ex, its singular matrices' inverses filled with inf IN PLACE (so that a
    # backward through it fails as PyTorch's, the inverse it saved having been changed), the
    # product of the norms, its nan (0 * inf) made inf in place
    inverse, info = _info_zero(inv, "linalg_inv_ex", "inverse", "A")(a)
    singular = Tensor((info.data > 0)[..., None, None])
    _in_place(masked_fill)(inverse, singular, float("inf"))
    r = A.mul_t(matrix_norm(a, p), matrix_norm(inverse, p))
    return _in_place(nan_to_num)(r, float("inf"), float("inf"), float("-inf"))


# --- torch.segment_reduce -----------------------------------------------------------------------

_SEGMENT_REDUCTIONS = {"sum": "sum", "prod": "prod", "mean": "mean", "max": "max", "amax": "max"}
_SEGMENT_REDUCTIONS.update({"min": "min", "amin": "min"})


def segment_reduce(
    data: Any,
    reduce: Any,
    *,
    lengths: Any = None,
    indices: Any = None,
    offsets: Any = None,
    axis: Any = 0,
    unsafe: Any = False,
    initial: Any = None,
) -> Tensor:
    """`torch.segment_reduce(data, reduce, lengths= | offsets=, axis=0, unsafe, initial)`:
    PyTorch's checks in its words, then the record (`ops.segment`) on the segments along
    `axis`, the last dimension of lengths (or offsets), one row of them per index before it."""
    from ..ops import segment as SG

    x = A.tensor_arg(data, "data")
    if reduce not in _SEGMENT_REDUCTIONS:
        raise GradcliError(
            f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}"
        ).mirror("RuntimeError")
    if indices is not None:
        raise (
            GradcliError("segment_reduce(): indices based reduction is not supported yet.")
            .mirror("RuntimeError")
            .pytorch()
        )
    if lengths is None and offsets is None:
        raise GradcliError("segment_reduce(): Either lengths or offsets must be defined.").mirror(
            "RuntimeError"
        )
    axis = C.check_dim(axis, x.ndim)
    index = A.tensor_arg(lengths if lengths is not None else offsets, "lengths")
    if index.dtype.kind not in "iu":
        kernel = "lengths" if lengths is not None else "offsets"
        raise GradcliError(
            f'"_segment_reduce_{kernel}_cpu_kernel1" not implemented for '
            f"'{scalar_type_name(index.dtype)}'"
        ).mirror("NotImplementedError")
    if axis != index.ndim - 1:
        raise GradcliError(
            "segment_reduce(): Expected axis to be the last dimension of "
            f"{'lengths' if lengths is not None else 'offsets'} but got {axis}."
        ).mirror("RuntimeError")
    if tuple(index.shape[:-1]) != tuple(x.shape[:axis]):
        raise NotSupported(
            "torch.segment_reduce with lengths whose leading dimensions are not the data's "
            "is not supported by gradcli (PyTorch reads memory past the lengths)",
            hint=f"give lengths of shape {list(x.shape[:axis])} + [number of segments]",
        )
    rows = index.data.reshape(-1, index.shape[-1]).tolist() if index.ndim else []
    if lengths is None:
        rows = [[b - a for a, b in zip(r, r[1:])] for r in rows]
    size = x.shape[axis]
    if not unsafe:
        if any(n < 0 for r in rows for n in r):
            raise GradcliError("lengths contains negative value!").mirror("RuntimeError")
        if any(sum(r) != size for r in rows):
            raise GradcliError(
                "segment_reduce(): Expected all rows of lengths along axis to sum to "
                "data.size(lengths.dim()-1) when !unsafe."
            ).mirror("RuntimeError")
    elif any(n < 0 for r in rows for n in r) or any(sum(r) > size for r in rows):
        raise NotSupported(
            "torch.segment_reduce(..., unsafe=True) with lengths that do not fit the data is "
            "not supported by gradcli (PyTorch reads memory past the tensor)",
            hint="give lengths that sum to data.size(axis)",
        )
    seg: Any = tuple(rows[0]) if axis == 0 else tuple(tuple(int(n) for n in r) for r in rows)
    if x.dtype.kind != "f":
        raise GradcliError(
            f"\"_segment_reduce_cpu\" not implemented for '{scalar_type_name(x.dtype)}'"
        ).mirror("NotImplementedError")
    if initial is not None:
        initial = float(initial)
    return apply(
        SG.segment_reduce,
        x,
        lengths=tuple(int(n) for n in seg) if axis == 0 else seg,
        reduce=_SEGMENT_REDUCTIONS[reduce],
        initial=initial,
        axis=axis,
    )
