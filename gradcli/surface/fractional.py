"""Fractional max pooling (`F.fractional_max_pool2d` / `3d`, `nn.FractionalMaxPool2d` / `3d`),
as PyTorch 2.13 computes it on the CPU.

Each (batch, channel) plane draws one uniform sample per pooled axis: unless the program gives
`_random_samples`, `torch.rand(N, C, d)` in the input's dtype from the generator (N is 1 for an
unbatched input), which is what a program seeding torch.manual_seed reproduces. Output position
i of an axis of n inputs, o outputs and pool size k starts at
`int((i + u) * a) - int(u * a)` with `a = (n - k) / (o - 1)`, computed in the input's dtype
(ATen's `generate_intervals`), the last at n - k. The 2-D kernel takes its planes' first sample
for the width and the second for the height; the 3-D one takes them in order (time, height,
width). The window's maximum is the first strict one in row-major order, or its last NaN;
the gradient goes to it (accumulated where windows share it), as a gather's does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core.dtypes import BF16, round_bf16
from ..core.tensor import Settings, Tensor
from ..ops import arithmetic as A
from . import functional as F

# Window elements one call may pool (gathered a chunk of planes at a time, _CHUNK at most).
_WINDOW_ELEMENTS = 100_000_000
_CHUNK = 2_000_000


def _ints(v: Any, d: int, what: str, fn: str) -> tuple[int, ...]:
    if isinstance(v, int) and not isinstance(v, bool):
        return (v,) * d
    if isinstance(v, (tuple, list)) and all(
        isinstance(k, int) and not isinstance(k, bool) for k in v
    ):
        if len(v) == 1:
            return (v[0],) * d
        if len(v) == d:
            return tuple(v)
    many = "Int or tuple of Ints" if d == 2 else "Int or tuple of three Ints"
    raise GradcliError(f"{fn}: {what} must either be a single {many}").mirror("RuntimeError")


def _dim_size(x: Tensor, dim: int) -> int:
    if not -max(x.ndim, 1) <= dim < max(x.ndim, 1):
        raise GradcliError(
            f"Dimension out of range (expected to be in range of [{-max(x.ndim, 1)}, "
            f"{max(x.ndim, 1) - 1}], but got {dim})"
        ).mirror("IndexError")
    return x.shape[dim]


def _intervals(samples: np.ndarray, n: int, o: int, k: int, dt: np.dtype) -> np.ndarray:
    """ATen's generate_intervals for each plane's sample (a row of starts per plane), in the
    input's dtype (half and bfloat16: each operation in float32, rounded to the dtype, as c10's
    Half and BFloat16 operators compute)."""
    seq = np.zeros((samples.shape[0], o), np.int64)
    if o > 1:
        if dt == BF16:

            def v(a: Any) -> Any:
                return round_bf16(a).astype(np.float32)
        else:

            def v(a: Any) -> Any:
                return np.asarray(a, dtype=dt)

        s = v(samples)[:, None]
        alpha = v(v(n - k) / v(o - 1))
        base = v(s * alpha).astype(np.int64)
        steps = v(np.arange(o - 1))[None, :]
        seq[:, : o - 1] = v(v(steps + s) * alpha).astype(np.int64) - base
    if o > 0:
        seq[:, o - 1] = n - k
    return seq


def fractional_max_pool(
    input: Any,  # noqa: A002
    kernel_size: Any,
    output_size: Any,
    output_ratio: Any,
    return_indices: Any,
    _random_samples: Any,
    d: int,
) -> Any:
    fn = f"fractional_max_pool{d}d"
    x = A.tensor_arg(input, "input")
    if output_size is None and output_ratio is None:
        raise GradcliError(
            f"{fn} requires specifying either an output_size or an output_ratio"
        ).mirror("ValueError")
    if output_size is None:
        ratio = output_ratio
        if d == 2:
            if not isinstance(ratio, (tuple, list)):
                raise GradcliError(f"object of type '{type(ratio).__name__}' has no len()").mirror(
                    "TypeError"
                )
            if len(ratio) > 2:
                raise GradcliError(
                    f"{fn} requires output_ratio to either be a single Int or tuple of Ints."
                ).mirror("ValueError")
        ratio = tuple(ratio) if isinstance(ratio, (tuple, list)) else (ratio,) * d
        if len(ratio) == 1:
            ratio = ratio * d
        output_size = [int(_dim_size(x, -d + a) * ratio[a]) for a in range(d)]
    samples = _random_samples
    if samples is None:
        n_batch = 1 if x.ndim == d + 1 else _dim_size(x, 0)
        channels = _dim_size(x, -(d + 1))
        from . import sampling

        draw = sampling.rand(
            n_batch, channels, d, dtype=None if x.dtype == Settings.default_dtype else x.dtype
        )
        samples = Tensor(draw.data.astype(x.dtype, copy=False))
    if not isinstance(samples, Tensor):
        raise GradcliError(
            f"{fn}(): argument 'random_samples' (position 4) must be Tensor, not "
            f"{type(samples).__name__}"
        ).mirror("TypeError")
    kernel = _ints(kernel_size, d, "kernel_size", fn)
    sizes = _ints(output_size, d, "output_size", fn)
    if x.dtype.kind != "f":
        raise GradcliError(f"\"{fn}_out_frame\" not implemented for '{x.dtype}'")
    if samples.dtype != x.dtype:
        raise GradcliError("Expect _random_samples to have the same dtype as input")
    if samples.ndim != 3:
        raise GradcliError(f"Expect _random_samples to have 3 dimensions, got {samples.ndim}")
    batch, channel = (1, x.shape[0]) if x.ndim == d + 1 else (x.shape[0], x.shape[1])
    if x.ndim in (d + 1, d + 2):
        if samples.shape[0] < batch:
            raise GradcliError("Expect _random_samples.size(0) no less then input batch size.")
        if samples.shape[1] != channel:
            raise GradcliError("Expect _random_samples.size(1) equals to input channel size.")
        if samples.shape[2] != d:
            raise GradcliError(
                f"Expect _random_samples.size(2) equals to {d}; got {samples.shape[2]}."
            )
    for i in range(1, x.ndim if x.ndim in (d + 1, d + 2) else 0):
        if x.shape[i] == 0:
            raise GradcliError(
                f"{fn}{'()' if d == 2 else '_out()'}: Expected input to have non-zero size for "
                f"non-batch dimensions, but got{list(x.shape)} with dimension {i} being empty."
            )
    if x.ndim not in (d + 1, d + 2):
        if d == 2:
            raise GradcliError(
                f"non-empty 3D or 4D (batch mode) tensor expected for input, but got: {x.ndim}"
            )
        raise GradcliError(
            f"{fn}_out(): non-empty 4D or 5D (batch mode) tensor  expected for input, but got: "
            f"{x.ndim}"
        )
    spatial = x.shape[-d:]
    names = ("height", "width") if d == 2 else ("time", "height", "width")
    order = (0, 1) if d == 2 else (0, 2, 1)  # (the 3-D kernel checks time, width, height)
    for a in order:
        too_big = (
            sizes[a] + kernel[a] - 1 > spatial[a]
            if d == 2
            else (sizes[a] + kernel[a] - 1 >= spatial[a])
        )
        if too_big:
            where = f"{fn}()" if d == 2 else f"{fn}_out()"
            raise GradcliError(
                f"{where}: pool {names[a]} {kernel[a]} too large relative to input "
                f"{names[a]} {spatial[a]}"
            )
    lead = tuple(x.shape[:-d])
    A.size_check(lead + tuple(sizes), f"{fn} output")
    windows = int(np.prod(lead + tuple(sizes) + tuple(kernel), dtype=object))
    if windows > _WINDOW_ELEMENTS:
        raise GradcliError(
            f"{fn}: gradcli pools at most {_WINDOW_ELEMENTS:,} window elements in one call, got "
            f"{windows:,}",
            hint="pool a smaller batch at a time, or with a smaller kernel",
        )
    idx = _indices(x, samples, kernel, tuple(sizes), d)
    if 0 in kernel:  # an empty window: PyTorch's -inf at its first position
        out = Tensor(np.full(lead + tuple(sizes), -np.inf, x.dtype))
        return (out, Tensor(idx)) if return_indices else out
    out = _gathered(x, idx, lead, tuple(sizes))
    out = A.named(out, f"FractionalMaxPool{d}DBackward0")
    return (out, Tensor(idx)) if return_indices else out


def _indices(x: Tensor, samples: Tensor, kernel: tuple, sizes: tuple, d: int) -> np.ndarray:
    """The flat position, within its plane, of each output's maximum."""
    spatial = x.shape[-d:]
    lead = tuple(x.shape[:-d])
    planes = int(np.prod(lead, dtype=np.int64))
    span = int(np.prod(spatial, dtype=np.int64))
    cells = int(np.prod(sizes, dtype=np.int64))
    data = x.data.reshape(planes, span)
    u = samples.data.reshape(-1, d)[:planes]  # each plane's samples, in order
    axis_sample = (1, 0) if d == 2 else (0, 1, 2)  # 2-D: the width takes the first sample
    strides = [int(np.prod(spatial[a + 1 :], dtype=np.int64)) for a in range(d)]
    first = np.zeros((planes,) + sizes, np.int64)
    for a in range(d):
        starts = _intervals(u[:, axis_sample[a]], spatial[a], sizes[a], kernel[a], x.dtype)
        shape = [planes] + [1] * d
        shape[a + 1] = sizes[a]
        first = first + (starts * strides[a]).reshape(shape)
    first = first.reshape(planes, cells)
    window = np.zeros(1, np.int64)
    for a in range(d):
        window = (window[:, None] + np.arange(kernel[a])[None, :] * strides[a]).ravel()
    if window.size == 0 or first.size == 0:
        return first.reshape(lead + sizes)
    idx = np.empty((planes, cells), np.int64)
    step = max(1, _CHUNK // (cells * window.size))  # planes at a time
    for p in range(0, planes, step):
        flat = first[p : p + step, :, None] + window[None, None, :]
        rows = data[p : p + step]
        win = np.take_along_axis(rows, flat.reshape(len(rows), -1), 1).reshape(flat.shape)
        nan = np.isnan(win)
        last_nan = win.shape[-1] - 1 - np.argmax(nan[..., ::-1], -1)
        # the first strict maximum (a window of -inf keeps its first element), or the last NaN
        pick = np.where(nan.any(-1), last_nan, np.argmax(win, -1))
        idx[p : p + step] = np.take_along_axis(flat, pick[..., None], -1)[..., 0]
    return idx.reshape(lead + sizes)


def _gathered(x: Tensor, idx: np.ndarray, lead: tuple, sizes: tuple) -> Tensor:
    from .composite import gather

    d = len(sizes)
    span = int(np.prod(x.shape[-d:], dtype=np.int64))
    cells = int(np.prod(sizes, dtype=np.int64))
    flat_x = F.reshape(x, lead + (span,))
    out = gather(flat_x, flat_x.ndim - 1, Tensor(idx.reshape(lead + (cells,))))
    return F.reshape(out, lead + sizes)


def fractional_max_pool2d(
    input: Any,  # noqa: A002
    kernel_size: Any,
    output_size: Any = None,
    output_ratio: Any = None,
    return_indices: Any = False,
    _random_samples: Any = None,
) -> Any:
    return fractional_max_pool(
        input, kernel_size, output_size, output_ratio, return_indices, _random_samples, 2
    )


def fractional_max_pool3d(
    input: Any,  # noqa: A002
    kernel_size: Any,
    output_size: Any = None,
    output_ratio: Any = None,
    return_indices: Any = False,
    _random_samples: Any = None,
) -> Any:
    return fractional_max_pool(
        input, kernel_size, output_size, output_ratio, return_indices, _random_samples, 3
    )


def fractional_max_pool2d_with_indices(
    input: Any,  # noqa: A002
    kernel_size: Any,
    output_size: Any = None,
    output_ratio: Any = None,
    return_indices: Any = False,
    _random_samples: Any = None,
) -> Any:
    return fractional_max_pool(
        input, kernel_size, output_size, output_ratio, True, _random_samples, 2
    )


def fractional_max_pool3d_with_indices(
    input: Any,  # noqa: A002
    kernel_size: Any,
    output_size: Any = None,
    output_ratio: Any = None,
    return_indices: Any = False,
    _random_samples: Any = None,
) -> Any:
    return fractional_max_pool(
        input, kernel_size, output_size, output_ratio, True, _random_samples, 3
    )


def _module_args(
    name: str,
    d: int,
    kernel_size: Any,
    output_size: Any,
    output_ratio: Any,
) -> tuple[tuple, Any, Any]:
    """nn.FractionalMaxPool2d/3d's constructor checks, in PyTorch's words; its settings as it
    keeps them (each a d-tuple)."""

    def ntuple(v: Any) -> Any:
        if v is None:
            return None
        return tuple(v) if isinstance(v, (tuple, list)) else (v,) * d

    if d == 3 and (
        (isinstance(kernel_size, int) and kernel_size <= 0)
        or (isinstance(kernel_size, (tuple, list)) and not all(k > 0 for k in kernel_size))
    ):
        raise GradcliError(f"kernel_size must be greater than 0, but got {kernel_size}").mirror(
            "ValueError"
        )
    kernel = ntuple(kernel_size)
    size, ratio = ntuple(output_size), ntuple(output_ratio)
    if output_size is None and output_ratio is None:
        raise GradcliError(
            f"{name} requires specifying either an output size, or a pooling ratio"
        ).mirror("ValueError")
    if output_size is not None and output_ratio is not None:
        raise GradcliError("only one of output_size and output_ratio may be specified").mirror(
            "ValueError"
        )
    if ratio is not None and not all(0 < r < 1 for r in ratio[:d]):
        raise GradcliError(f"output_ratio must be between 0 and 1 (got {output_ratio})").mirror(
            "ValueError"
        )
    return kernel, size, ratio
