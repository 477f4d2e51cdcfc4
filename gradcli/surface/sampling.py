"""PyTorch's random functions as a program calls them (`torch.manual_seed`, `torch.randn`,
`x.normal_()`, `torch.Generator()`, `F.dropout`...), drawing from `random`'s bit-exact copy of
PyTorch's CPU generator, so that a program prints PyTorch's numbers.

The default generator starts from `--seed` (default 0) where PyTorch's would be
nondeterministic. A draw without `dtype=` is made in PyTorch's default dtype (float32 unless the
program called `set_default_dtype`) and then widened to gradcli's default (float64 in the
analysis commands), so that the analysis runs on PyTorch's numbers.
"""

from __future__ import annotations

import math
import sys
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import ArgumentTypeError, GradcliError, NotSupported
from ..core import hooks
from ..core.dtypes import check_dtype, scalar_type_name
from ..core.inplace import check_target
from ..core.stdalgo import topk_order
from ..core.tensor import Settings, Tensor, grad_enabled, own, pytype_name, typename
from ..ops.arithmetic import broadcast_shape, mul_t, tensor_arg
from .args import NO_SIZE, int_arg, memory_format_arg, parsed_number, shape_arg, sizes_arg
from .declare import declare

# `random` (PyTorch's generator, bit for bit, and its distributions: the largest module of the
# surface) is imported when a program first draws, seeds or reads the generator, not at
# start-up: the surface reaches it through `R`, and a run started before it was imported leaves
# its seed pending (`reset`), applied when it is.
_RANDOM = "gradcli.surface.random"
_LOADED: list[Any] = [None]  # the module, once imported and configured
_PENDING_SEED: list[int | None] = [None]


def random_module() -> Any:
    """`surface.random`, imported and configured on first use: the clock check of a large
    fma, and the seed of the run that started before it was imported."""
    mod = _LOADED[0]
    if mod is None:
        import importlib

        mod = importlib.import_module(_RANDOM)
        mod.CLOCK_CHECK = lambda: limits.BUDGET.check_clock()  # a large fma checks the clock
        _LOADED[0] = mod
    seed = _PENDING_SEED[0]
    if seed is not None:
        _PENDING_SEED[0] = None
        _seed_default(mod, seed)
    return mod


class _Random:
    """`R.X` is `surface.random.X`, the module imported on first use (`random_module`)."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        return getattr(random_module(), name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(random_module(), name, value)


R: Any = _Random()


class Generator:
    """`torch.Generator()`: a generator of its own, passed as `generator=`; `torch.manual_seed`
    returns (and `torch.default_generator` is) the one that wraps the module's generator."""

    # What a program may call on it (the interpreter reads this table, nothing else).
    PROGRAM_ATTRIBUTES = ("manual_seed", "seed", "initial_seed", "get_state", "set_state", "device")

    def __init__(self, device: Any = "cpu", *, _default: bool = False) -> None:
        if device not in ("cpu", None) and getattr(device, "type", None) != "cpu":
            raise GradcliError(
                f"Generator(device={device!r}): gradcli has the CPU generator only",
                hint="write torch.Generator() (the CPU one)",
            )
        self._own = None if _default else R.Generator(fallback_seed=Settings.seed)
        self.device = "cpu"

    @property
    def gen(self) -> R.Generator:
        return R.default_generator() if self._own is None else self._own

    def manual_seed(self, seed: Any) -> Generator:
        _call(self.gen.manual_seed, _seed_arg(seed))
        return self

    def seed(self) -> int:
        return self.gen.seed()

    def initial_seed(self) -> int:
        return self.gen.initial_seed()

    def get_state(self) -> Tensor:
        return Tensor(self.gen.get_state())

    def set_state(self, state: Any) -> Generator:
        _call(self.gen.set_state, _state_arg(state))
        return self

    def __repr__(self) -> str:
        return f"<torch._C.Generator object at {id(self):#x}>"


DEFAULT = Generator(_default=True)


def reset(seed: int) -> None:
    """Start a run: the default generator seeded with `--seed` (also what `torch.seed()`
    reseeds with, where PyTorch would take a nondeterministic seed). Before `random` is
    imported, the seed waits for it (`random_module`)."""
    if _LOADED[0] is None and _RANDOM not in sys.modules:
        _PENDING_SEED[0] = int(seed)
        return
    _PENDING_SEED[0] = None
    _seed_default(random_module(), seed)


def _seed_default(mod: Any, seed: int) -> None:
    gen = mod.default_generator()
    # Any integer is a seed, as for torch.manual_seed's negative ones: it wraps modulo 2**64.
    gen.fallback_seed = int(seed) % 2**64
    gen.manual_seed(gen.fallback_seed)


def _call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """The random module raises Python's exceptions with PyTorch's words: the program's error,
    of PyTorch's class (ValueError for a seed past 64 bits, NotImplementedError for a dtype a
    kernel lacks, else RuntimeError); its Python warnings are PyTorch's warnings, given to
    the program's warning sink."""
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = fn(*args, **kwargs)
        for w in caught:
            hooks.warn(str(w.message))
        return result
    except NotImplementedError as e:
        raise GradcliError(str(e)).mirror("NotImplementedError") from None
    except ValueError as e:
        raise GradcliError(str(e)).mirror("ValueError") from None
    except (RuntimeError, TypeError, OverflowError) as e:
        raise GradcliError(str(e)) from None


def _seed_arg(seed: Any, *, convert: bool = False) -> int:
    """A seed: an int (or a one-element integer tensor). torch.manual_seed calls int() on what
    it is given first (`convert`: 1.5 seeds with 1, '3' with 3); Generator.manual_seed does
    not (a float is refused)."""
    if isinstance(seed, Tensor) and seed.data.size == 1 and seed.dtype.kind in "iu":
        seed = int(seed.data.reshape(()))
    if convert and isinstance(seed, float):
        if math.isnan(seed):
            raise GradcliError("cannot convert float NaN to integer").mirror("ValueError")
        if math.isinf(seed):
            raise GradcliError("cannot convert float infinity to integer").mirror("OverflowError")
        return int(seed)
    if convert and isinstance(seed, str):
        try:
            return int(seed)
        except ValueError:
            raise GradcliError(f"invalid literal for int() with base 10: {seed!r}").mirror(
                "ValueError"
            ) from None
    if isinstance(seed, bool) and convert:
        return int(seed)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise GradcliError(
            f"manual_seed expected a long, but got {typename(seed)}", hint="pass an int"
        )
    return int(seed)


def _state_arg(state: Any) -> np.ndarray:
    if not isinstance(state, Tensor):
        raise GradcliError(
            f"expected a torch.ByteTensor, but got {typename(state)}",
            hint="pass what torch.get_rng_state() returned",
        ).mirror("TypeError")
    if state.dtype != np.uint8:
        raise GradcliError(
            "RNG state must be a torch.ByteTensor",
            found=f"a tensor of dtype {scalar_type_name(state.dtype)}",
        ).mirror("TypeError")
    return state.data


def _gen(generator: Any) -> R.Generator | None:
    if generator is None:
        return None
    if not isinstance(generator, Generator):
        raise GradcliError(
            f"generator must be a torch.Generator, not {typename(generator)}",
            hint="g = torch.Generator().manual_seed(0), then generator=g",
        ).mirror("TypeError")
    return generator.gen


# --- the generator's functions -----------------------------------------------------------------


def manual_seed(seed: Any) -> Generator:
    _call(R.manual_seed, _seed_arg(seed, convert=True))
    return DEFAULT


def seed() -> int:
    return R.seed()


def initial_seed() -> int:
    return R.initial_seed()


def get_rng_state() -> Tensor:
    return Tensor(R.get_rng_state())


def set_rng_state(new_state: Any) -> None:
    _call(R.set_rng_state, _state_arg(new_state))


# --- dtypes of a draw ----------------------------------------------------------------------------


# The kernel a draw of floats reaches (named in PyTorch's message for an integer dtype).
_KERNELS = {"rand": "check_uniform_bounds", "rand_like": "check_uniform_bounds"}


def _float_draw(dtype: Any, fn: str, empty: bool = False) -> tuple[np.dtype, np.dtype]:
    """(the dtype to draw in, the dtype of the result): without `dtype`, PyTorch's default
    (then widened to gradcli's default); else the dtype asked, which must be a float, except
    for normals of no elements (PyTorch's normal_ returns before its kernel checks)."""
    if dtype is None:
        return Settings.draw_dtype, Settings.default_dtype
    dt = check_dtype(dtype, fn=fn)
    if dt.kind == "c" and fn in _COMPLEX_DRAWS:
        return dt, dt  # (drawn as its real view: `_drawn`)
    if dt.kind != "f" and not (empty and fn not in _KERNELS):
        raise GradcliError(
            f'"{_KERNELS.get(fn, "normal_kernel_cpu")}" not implemented for '
            f"'{scalar_type_name(dt)}'",
            hint="random floats need a float dtype (torch.float32 or torch.float64)",
        ).mirror("NotImplementedError")
    return dt, dt


def _like_draw(t: Tensor, dtype: Any, fn: str) -> tuple[np.dtype, np.dtype]:
    if dtype is None:
        if t.dtype == Settings.default_dtype:
            return Settings.draw_dtype, t.dtype  # a tensor of the default dtype: PyTorch's
        return _float_draw(t.dtype, fn, t.data.size == 0)
    return _float_draw(dtype, fn, t.data.size == 0)


# The draws that make complex tensors: PyTorch draws on the tensor's real view (shape + (2,),
# the real and imaginary parts of each number in turn), uniform_ as it is, normal_ with the
# standard deviation divided by sqrt(2) (the variance split between the two parts).
_COMPLEX_DRAWS = ("rand", "randn", "rand_like", "randn_like")


def _drawn(
    fn: str,
    draw: Callable[..., np.ndarray],
    shape: tuple[int, ...],
    dt: np.dtype,
    generator: Any,
    strides: Any = None,
) -> np.ndarray:
    """The values of a draw of `shape` in `dt`; of a complex dtype, its real view's."""
    if dt.kind != "c":
        return _call(draw, shape, dtype=dt, generator=_gen(generator), strides=strides)
    if strides is not None:
        raise NotSupported(
            f"{fn}() of a complex tensor laid out as a transposed one is not supported",
            hint="make it contiguous first: .contiguous()",
        )
    real = np.dtype(np.float64 if dt == np.complex128 else np.float32)
    if fn.startswith("randn"):
        values = _call(
            R.normal_, (*shape, 2), 0.0, 1.0 / math.sqrt(2.0), dtype=real, generator=_gen(generator)
        )
    else:
        values = _call(draw, (*shape, 2), dtype=real, generator=_gen(generator))
    return np.ascontiguousarray(values).view(dt).reshape(shape)


def _new(values: np.ndarray, out_dtype: np.dtype, requires_grad: bool) -> Tensor:
    return Tensor(values.astype(out_dtype, copy=False), requires_grad=requires_grad)


def _strides(t: Tensor) -> tuple[int, ...] | None:
    a = t.data
    if a.flags.c_contiguous:
        return None
    return tuple(s // a.itemsize for s in a.strides)


# --- new tensors ---------------------------------------------------------------------------------


def _sized(fn: str, draw: Callable[..., np.ndarray]) -> Callable[..., Tensor]:
    def make(
        *sizes: Any,
        size: Any = NO_SIZE,
        generator: Any = None,
        dtype: Any = None,
        requires_grad: bool = False,
        device: Any = None,
        out: Any = None,
        layout: Any = None,
        pin_memory: bool = False,
    ) -> Tensor:
        shape = sizes_arg(sizes, size, fn)
        if out is not None:
            return _draw_into(out, fn, shape, dtype, draw, generator)
        draw_dt, out_dt = _float_draw(dtype, fn, math.prod(shape) == 0)
        values = _drawn(fn, draw, shape, draw_dt, generator)
        return _new(values, out_dt, requires_grad)

    make.__name__ = fn
    return make


def _draw_into(
    out: Any,
    fn: str,
    shape: tuple[int, ...],
    dtype: Any,
    draw: Callable[..., np.ndarray],
    generator: Any,
) -> Tensor:
    """`torch.rand(size, out=t)` and its kin: the draw is made on t itself, as PyTorch's
    out= variants do (t resized to `size` when its shape differs, then filled in the order
    of its strides: a transposed t is filled in memory order), in t's dtype."""
    from .functional import write_out

    if not isinstance(out, Tensor):
        raise GradcliError(f"{fn}(): argument 'out' must be Tensor, not {typename(out)}").mirror(
            "TypeError"
        )
    if dtype is not None:
        dt = check_dtype(dtype, fn=fn)
        if dt != out.dtype:
            raise GradcliError(
                f"dtype {scalar_type_name(dt)} does not match dtype of out parameter "
                f"({scalar_type_name(out.dtype)})"
            )
    if out.dtype == Settings.default_dtype:
        draw_dt = Settings.draw_dtype
    else:
        draw_dt, _ = _float_draw(out.dtype, fn, math.prod(shape) == 0)
    strides = _strides(out) if tuple(out.shape) == tuple(shape) else None
    values = _call(draw, shape, dtype=draw_dt, generator=_gen(generator), strides=strides)
    return write_out(out, Tensor(values.astype(out.dtype, copy=False)), fn)


rand = _sized("rand", lambda shape, **kw: R.rand(shape, **kw))
randn = _sized("randn", lambda shape, **kw: R.randn(shape, **kw))


def _like_strides(t: Tensor) -> tuple[int, ...] | None:
    """The strides `torch.empty_like(t)` gives (preserve_format): t's own when t is dense and
    non-overlapping (a transposed tensor), else contiguous (None): random draws fill a tensor in
    the order of its strides, so `rand_like(x.t())` is `rand(...)` laid out as x.t()."""
    return R.dense_strides(t.shape, _strides(t))


def _like(fn: str, draw: Callable[..., np.ndarray]) -> Callable[..., Tensor]:
    def make(
        input: Any,  # noqa: A002 - PyTorch's name
        *,
        dtype: Any = None,
        requires_grad: bool = False,
        device: Any = None,
        layout: Any = None,
        memory_format: Any = None,
        generator: Any = None,
    ) -> Tensor:
        t = tensor_arg(input, "input")
        fmt = memory_format_arg(memory_format, fn, t.shape)
        draw_dt, out_dt = _like_draw(t, dtype, fn)
        if fmt == "preserve":
            strides = _like_strides(t)
        else:  # (drawn in the order of the format's strides)
            from ..core.layout import format_strides

            strides = format_strides(t.shape, fmt) if fmt != "contiguous" else None
        values = _drawn(fn, draw, t.shape, draw_dt, generator, strides)
        out = _new(values, out_dt, requires_grad)
        if fmt == "preserve":  # laid out as t, as PyTorch's (`rand_like(x.t()).stride()`)
            out.data = laid_out_like(out.data, t.data)
        elif fmt != "contiguous":
            from ..core.layout import in_format

            out.data = in_format(out.data, fmt)
        return out

    make.__name__ = fn
    return make


rand_like = _like("rand_like", lambda shape, **kw: R.rand(shape, **kw))
randn_like = _like("randn_like", lambda shape, **kw: R.randn(shape, **kw))


RANDINT_OVERLOADS = (
    " * (int high, tuple of ints size, *, torch.Generator generator, tensor out, torch.dtype "
    "dtype, torch.layout layout, torch.device device, bool pin_memory, bool requires_grad)\n"
    " * (int low, int high, tuple of ints size, *, torch.Generator generator, tensor out, "
    "torch.dtype dtype, torch.layout layout, torch.device device, bool pin_memory, bool "
    "requires_grad)"
)
NORMAL_OVERLOADS = (
    " * (Tensor mean, Tensor std, *, torch.Generator generator, Tensor out)\n"
    " * (Tensor mean, float std, *, torch.Generator generator, Tensor out)\n"
    " * (float mean, Tensor std, *, torch.Generator generator, Tensor out)\n"
    " * (float mean, float std, tuple of ints size, *, torch.Generator generator, Tensor out, "
    "torch.dtype dtype, torch.layout layout, torch.device device, bool pin_memory, bool "
    "requires_grad)"
)


def _invalid_combination(fn: str, args: tuple[Any, ...], overloads: str) -> GradcliError:
    """PyTorch's TypeError for arguments that match none of a function's signatures."""
    got = ", ".join(typename(a) for a in args)
    return GradcliError(
        f"{fn}() received an invalid combination of arguments - got ({got}), but expected one of:",
        hint="the signatures:\n" + overloads,
    ).mirror("TypeError")


def randint(
    *args: Any,
    size: Any = None,
    low: Any = None,
    high: Any = None,
    generator: Any = None,
    dtype: Any = None,
    requires_grad: bool = False,
    device: Any = None,
) -> Tensor:
    """`torch.randint(high, size)` / `torch.randint(low, high, size)` (int64 unless `dtype`)."""
    pos = list(args)
    if size is None and pos and isinstance(pos[-1], (tuple, list)):
        size = pos.pop()
    if size is None:
        raise _invalid_combination("randint", args, RANDINT_OVERLOADS)
    if low is None and high is None:
        if len(pos) == 1:
            low, high = 0, pos[0]
        elif len(pos) == 2:
            low, high = pos
        else:
            raise _invalid_combination("randint", args, RANDINT_OVERLOADS)
    elif high is None:
        high = pos[0] if pos else None
        if high is None:
            raise _invalid_combination("randint", args, RANDINT_OVERLOADS)
    elif low is None:
        low = pos[0] if pos else 0
    dt = np.dtype(np.int64) if dtype is None else check_dtype(dtype, fn="randint")
    shape = shape_arg((size,) if isinstance(size, int) else tuple(size))
    lo, hi = int_arg(low, "low"), int_arg(high, "high")
    values = _call(R.randint, lo, hi, shape, dtype=dt, generator=_gen(generator))
    return _new(values, dt, requires_grad)


def randint_like(
    input: Any,  # noqa: A002
    *args: Any,
    low: Any = None,
    high: Any = None,
    dtype: Any = None,
    requires_grad: bool = False,
    device: Any = None,
    generator: Any = None,
) -> Tensor:
    t = tensor_arg(input, "input")
    if len(args) == 1 and high is None:
        low, high = (0 if low is None else low), args[0]
    elif len(args) == 2:
        low, high = args
    if high is None:
        raise GradcliError("randint_like() needs high", hint="torch.randint_like(x, 10)")
    dt = t.dtype if dtype is None else check_dtype(dtype, fn="randint_like")
    lo, hi = int_arg(0 if low is None else low, "low"), int_arg(high, "high")
    values = _call(
        R.randint, lo, hi, t.shape, dtype=dt, generator=_gen(generator), strides=_like_strides(t)
    )
    out = _new(values, dt, requires_grad)
    out.data = laid_out_like(out.data, t.data)  # (drawn in t's order, laid out as t)
    return out


def randperm(
    n: Any,
    *,
    generator: Any = None,
    dtype: Any = None,
    requires_grad: bool = False,
    device: Any = None,
) -> Tensor:
    count = int_arg(n, "n")
    shape_arg((count,))
    dt = np.dtype(np.int64) if dtype is None else check_dtype(dtype, fn="randperm")
    values = _call(R.randperm, count, dtype=dt, generator=_gen(generator))
    return _new(values, dt, requires_grad)


def normal(
    mean: Any = 0.0,
    std: Any = 1.0,
    size: Any = None,
    *,
    generator: Any = None,
    dtype: Any = None,
    requires_grad: bool = False,
    device: Any = None,
    out: Any = None,
) -> Tensor:
    """`torch.normal`, every overload: (Tensor, Tensor), (Tensor, float), (float, Tensor),
    (float, float, size). The result is a new tensor outside the graph."""
    gen = _gen(generator)
    if size is not None:
        # (float mean, float std, size): 0-dim tensors that need no gradient are numbers there
        # (PyTorch's parser); any other tensor is no overload's (a size is not ignored)
        mean, std = parsed_number(mean), parsed_number(std)
        if isinstance(mean, Tensor) or isinstance(std, Tensor):
            from . import callerrors
            from .torch_signatures import PARSER

            words = callerrors._invalid_combination(
                "normal", PARSER["torch.normal"].split("|")[1:], [mean, std, size], {}
            )
            raise GradcliError(words or "normal(): no overload takes a tensor with a size").mirror(
                "TypeError"
            )
    if not isinstance(mean, Tensor) and not isinstance(std, Tensor):
        if size is None:
            raise _invalid_combination("normal", (mean, std), NORMAL_OVERLOADS)
        shape = shape_arg((size,) if isinstance(size, int) else tuple(size))
        if out is not None:
            m, s = float(mean), float(std)
            return _draw_into(
                out, "normal", shape, dtype, lambda sh, **kw: R.normal_(sh, m, s, **kw), generator
            )
        draw_dt, out_dt = _float_draw(dtype, "normal", math.prod(shape) == 0)
        values = _call(R.normal_, shape, float(mean), float(std), dtype=draw_dt, generator=gen)
        return _new(values, out_dt, requires_grad)
    m = mean.data if isinstance(mean, Tensor) else float(mean)
    s = std.data if isinstance(std, Tensor) else float(std)
    for t in (mean, std):
        if isinstance(t, Tensor) and t.dtype.kind != "f" and t.data.size:
            raise GradcliError(
                f"\"normal_kernel_cpu\" not implemented for '{scalar_type_name(t.dtype)}'",
                hint="mean and std must be float tensors",
            ).mirror("NotImplementedError")
    if isinstance(mean, Tensor) and isinstance(std, Tensor):
        broadcast_shape(mean, std)  # PyTorch's words for shapes that do not broadcast
    values = _call(R.normal, m, s, generator=gen)
    if out is not None:
        from .functional import write_out

        return write_out(out, Tensor(values), "normal")
    graph = _graph_inputs(mean, std)
    if graph:
        return _normal_node(values, mean, std, graph)
    return Tensor(values, requires_grad=requires_grad)


def _normal_node(values: np.ndarray, mean: Any, std: Any, graph: list[Tensor]) -> Tensor:
    """torch.normal with a mean or std that requires grad: the draws are in the graph as
    PyTorch's NormalBackward1 (tensor mean), 2 (tensor std) or 3 (both), whose gradients are
    zeros for mean and std (PyTorch's derivatives.yaml: a draw is not reparameterised)."""
    label = "NormalBackward" + (
        "3"
        if isinstance(mean, Tensor) and isinstance(std, Tensor)
        else "1"
        if isinstance(mean, Tensor)
        else "2"
    )
    return _draw_node(values, graph, label)


def _draw_node(values: np.ndarray, graph: list[Tensor], label: str) -> Tensor:
    """Draws `values` in the graph under PyTorch's node `label` (NormalBackward3,
    BernoulliBackward0, PoissonBackward0...): every input in `graph` gets a zero gradient, as
    derivatives.yaml gives a sample that is not reparameterised."""
    from ..ops.custom import custom_apply

    out = Tensor(values)

    def vjp(*grads: Any) -> Any:
        zeros = tuple(Tensor(np.zeros(t.shape, t.dtype)) for t in graph)
        return zeros if len(zeros) > 1 else zeros[0]

    def jvp(tangents: list[Tensor]) -> Tensor:
        return Tensor(np.zeros(values.shape, values.dtype))

    return custom_apply(label, graph, lambda: out, vjp, label=label, jvp=jvp, program=False)


def _undifferentiable_draw(values: np.ndarray, graph: list[Tensor], aten: str) -> Tensor:
    """Draws from inputs that require grad where PyTorch has no derivative: the result hangs
    from its NotImplemented node, whose backward is PyTorch's error."""
    from ..ops.custom import custom_apply

    out = Tensor(values)

    def vjp(*grads: Any) -> Any:
        raise GradcliError(f"derivative for aten::{aten} is not implemented").mirror("RuntimeError")

    def jvp(tangents: list[Tensor]) -> Any:
        raise GradcliError(
            f"Trying to use forward AD with aten::{aten} that does not support it."
        ).mirror("NotImplementedError")

    return custom_apply(
        "NotImplemented",
        graph,
        lambda: out,
        vjp,
        label="torch::autograd::NotImplemented",
        jvp=jvp,
        program=False,
    )


def _graph_inputs(*ts: Any) -> list[Tensor]:
    """The tensors among `ts` a draw hangs from: those that require grad, grad mode on, or
    that carry a forward-mode tangent (the draw's tangent is zeros, as PyTorch's)."""
    from ..core import dual
    from ..core.tensor import _GradMode

    tensors = [t for t in ts if isinstance(t, Tensor)]
    if _GradMode.dual and any(dual.tangent(t) is not None for t in tensors):
        return tensors
    if not grad_enabled():
        return []
    return [t for t in tensors if t.requires_grad]


def bernoulli(input: Any, p: Any = None, *, generator: Any = None) -> Tensor:  # noqa: A002
    t = tensor_arg(input, "input")
    if p is None:
        _float_probabilities(t)
    if p is not None:
        values = _call(R.bernoulli_, t.shape, float(p), dtype=t.dtype, generator=_gen(generator))
    else:
        values = _call(R.bernoulli, t.data, generator=_gen(generator))
    graph = _graph_inputs(t)
    if graph and p is None:
        return _draw_node(values, graph, "BernoulliBackward0")
    if graph:
        return _undifferentiable_draw(values, graph, "bernoulli")
    return Tensor(values)


def multinomial(
    input: Any,  # noqa: A002
    num_samples: Any,
    replacement: bool = False,
    *,
    generator: Any = None,
) -> Tensor:
    t = tensor_arg(input, "input")
    n = int_arg(num_samples, "num_samples")
    if t.ndim in (1, 2) and n > 0:
        rows = t.shape[0] if t.ndim == 2 else 1
        shape_arg((rows, n), "the samples")  # the result's size, before any work
        if not replacement or n == 1:
            _serial_check("multinomial", t.data.size)

    values = _call(
        R.multinomial,
        t.data,
        n,
        bool(replacement),
        generator=_gen(generator),
        strides=_like_strides(t),
        topk=topk_order,
    )
    return Tensor(values)


# --- in place: x.uniform_(), x.normal_(), ... ---------------------------------------------------


def _fill(x: Tensor, values: np.ndarray, label: str | None = None) -> Tensor:
    """x overwritten in place with the draws; `label`: the node PyTorch records for the draw
    when x requires grad (`d.normal_()` is NormalBackward0); None only under no_grad (nn.init,
    embedding's renorm), where nothing is recorded."""
    if label is None:
        assert not grad_enabled(), "a change recorded with no node name"
    from .functional import inplace_update

    return inplace_update(x, values.astype(x.dtype, copy=False), label or "")


# Values a second the samplers that call the C library once a value (from Python) make, at the
# least, on a loaded machine: a draw that would take longer than the time limit is refused
# before it starts.
SERIAL_RATES = {
    "exponential_": 5e5,
    "geometric_": 8e5,
    "cauchy_": 4e5,
    "log_normal_": 3e5,
    "normal_": 5e5,  # the pair-and-cache path: fewer than 16 values, or a strided tensor
    "multinomial": 5e5,  # without replacement: an exponential a probability
    "poisson": 5e5,  # uniforms drawn
    "binomial": 4e5,  # uniforms drawn
    "standard_gamma": 3e4,  # draws (measured 40,000-90,000 a second on a loaded machine)
}


def _serial_check(what: str, count: float) -> None:
    """Refuse, before anything is drawn, a draw of `count` values that the sampler `what`
    computes one at a time and that would outlast the time limit."""
    rate = SERIAL_RATES[what]
    allowed = rate * limits.TIME_SECONDS.value
    if count > allowed:
        raise GradcliError(
            f"{what}: about {count:,.0f} values computed one at a time (PyTorch's exact "
            f"sampler), more than the time limit allows ({allowed:,.0f})",
            expected=f"at most {allowed:,.0f} ({rate:,.0f} a second of {limits.TIME_SECONDS.name})",
            hint=f"draw fewer values, or raise {limits.TIME_SECONDS.env}",
        )


def _target(x: Any) -> Tensor:
    """The tensor an in-place draw fills, refused before anything is drawn (as PyTorch refuses
    it): a leaf that requires grad, or an expanded tensor whose elements share memory."""
    x = tensor_arg(x, "self")
    check_target(x)
    own(x)  # lent data (`core.tensor.lend`) is copied before its first write
    if not x.data.flags.writeable:
        raise GradcliError(
            "unsupported operation: more than one element of the written-to tensor refers to "
            "a single memory location. Please clone() the tensor before performing the "
            "operation.",
            hint="x = x.clone() first (expand() makes elements share memory)",
        )
    return x


def _float_target(x: Any, fn: str, complex_parts: bool = False) -> Tensor:
    """x, a float tensor (or, `complex_parts`, a complex one, drawn as its real view)."""
    x = _target(x)
    if complex_parts and x.dtype.kind == "c":
        if _strides(x) is not None:
            raise NotSupported(
                f"{fn}() into a complex tensor laid out as a transposed one is not supported",
                hint="fill a contiguous tensor: x = x.contiguous()",
            )
        return x
    if x.dtype.kind != "f":
        raise GradcliError(
            f"\"{fn}\" not implemented for '{scalar_type_name(x.dtype)}'",
            hint="fill a float tensor (x.float())",
        ).mirror("NotImplementedError")
    return x


def uniform_(x: Any, a: Any = 0.0, b: Any = 1.0, *, generator: Any = None, **kw: Any) -> Tensor:
    a, b = kw.pop("from", a), kw.pop("to", b)
    if kw:  # x.uniform_(from_=1): PyTorch's keyword is `from` (a Python keyword), nothing else
        raise GradcliError(
            f"uniform_() got an unexpected keyword argument '{next(iter(kw))}'",
            hint="x.uniform_(low, high), or **{'from': low, 'to': high}",
        ).mirror("TypeError")
    x = _float_target(x, "check_uniform_bounds", complex_parts=True)
    v = _call(
        R.uniform_,
        x.shape,
        float(a),
        float(b),
        dtype=x.dtype,
        generator=_gen(generator),
        strides=_strides(x),
    )
    return _fill(x, v, "UniformBackward0")


def normal_(x: Any, mean: Any = 0.0, std: Any = 1.0, *, generator: Any = None) -> Tensor:
    x = _target(x)
    if x.data.size:  # PyTorch returns before its kernel checks the dtype
        x = _float_target(x, "normal_kernel_cpu", complex_parts=True)
    if x.data.size >= 16 and not R.is_contiguous(x.shape, _strides(x)):
        _serial_check("normal_", x.data.size)
    v = _call(
        R.normal_,
        x.shape,
        float(mean),
        float(std),
        dtype=x.dtype,
        generator=_gen(generator),
        strides=_strides(x),
    )
    return _fill(x, v, "NormalBackward0")


def random_(x: Any, *bounds: Any, generator: Any = None, **kw: Any) -> Tensor:
    x = _target(x)
    # PyTorch's overloads: random_(from, to) records RandomBackward0, random_(to) 1, random_() 2
    label = f"RandomBackward{max(0, 2 - len(bounds) - ('from' in kw) - ('to' in kw))}"
    if "from" in kw or "to" in kw:
        # random_(from, to=...), random_(to=...) (from 0), random_(from=..., to=...)
        frm = kw.pop("from", bounds[0] if bounds else 0)
        bounds = (frm, kw.pop("to", bounds[1] if len(bounds) > 1 else None))
    if kw:  # x.random_(frm=1): matches none of PyTorch's three signatures
        got = ", ".join(f"{k}={typename(v)}" for k, v in kw.items())
        raise GradcliError(
            f"random_() received an invalid combination of arguments - got ({got}, ), but "
            "expected one of:",
            hint="the signatures:\n * (*, torch.Generator generator = None)\n * (int from, int "
            "to, *, torch.Generator generator = None)\n * (int to, *, torch.Generator "
            "generator = None)",
        ).mirror("TypeError")
    ints = tuple(None if b is None else int_arg(b, "bound") for b in bounds)
    v = _call(
        R.random_, x.shape, *ints, dtype=x.dtype, generator=_gen(generator), strides=_strides(x)
    )
    return _fill(x, v, label)


def _float_probabilities(p: Tensor) -> None:
    """ATen's bernoulli kernel reads a tensor of probabilities only as floats (any dtype of
    the tensor it fills, given a float p, is fine)."""
    if p.dtype.kind != "f":
        raise GradcliError(
            f"\"bernoulli_tensor_cpu_p_\" not implemented for '{scalar_type_name(p.dtype)}'",
            hint="give the probabilities as floats: p.float()",
        ).mirror("NotImplementedError")


def bernoulli_(x: Any, p: Any = 0.5, *, generator: Any = None) -> Tensor:
    x = _target(x)
    if isinstance(p, Tensor):
        _float_probabilities(p)
    prob = p.data if isinstance(p, Tensor) else float(p)
    v = _call(
        R.bernoulli_, x.shape, prob, dtype=x.dtype, generator=_gen(generator), strides=_strides(x)
    )
    return _fill(x, v, "BernoulliBackward1" if isinstance(p, Tensor) else "BernoulliBackward2")


def _serial_fill(name: str, x: Any, generator: Any, *params: float) -> Tensor:
    """x.NAME_(*params) in place: PyTorch's one-value-at-a-time sampler `R.NAME`, refused
    first when it would outlast the time limit."""
    x = _target(x)
    _serial_check(name, x.data.size)
    v = _call(
        getattr(R, name),
        x.shape,
        *params,
        dtype=x.dtype,
        generator=_gen(generator),
        strides=_strides(x),
    )
    return _fill(x, v, "".join(w.capitalize() for w in name[:-1].split("_")) + "Backward0")


def exponential_(x: Any, lambd: Any = 1.0, *, generator: Any = None) -> Tensor:
    return _serial_fill("exponential_", x, generator, float(lambd))


# --- dropout ---------------------------------------------------------------------------------


def _dropout_p(p: Any) -> float:
    p = parsed_number(p)  # (a 0-dim tensor: its value, as PyTorch's parser takes a double)
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0.0 <= p <= 1.0:
        raise GradcliError(f"dropout probability has to be between 0 and 1, but got {p}").mirror(
            "ValueError"
        )
    return float(p)


def _dropped(x: Tensor, noise: Tensor, shift: Tensor | None, inplace: bool) -> Tensor:
    """input * noise (+ shift), recorded (the gradient is grad * noise), or in place."""
    from ..ops.arithmetic import add_t

    if inplace:
        x.mul_(noise)
        return x if shift is None else x.add_(shift)
    out = mul_t(x, noise)
    return out if shift is None else add_t(out, shift)


def _dropout_impl(
    input: Any,  # noqa: A002
    p: Any,
    training: Any,
    inplace: Any,
    *,
    feature: bool,
    alpha: bool,
    generator: Any = None,
) -> Tensor:
    """ATen's _dropout_impl: the input itself when p == 0, not training or empty; input * 0
    when p == 1; else input times noise (bernoulli(1 - p) / (1 - p), or alpha dropout's affine
    map of it): one value an element, laid out as the input (empty_like), or one a (sample,
    channel) for feature dropout."""
    x = tensor_arg(input, "input")
    p = _dropout_p(p)
    if p == 0.0 or not training or x.data.size == 0:
        return x
    if p == 1.0:
        return _dropped(x, Tensor(np.zeros((), x.dtype)), None, bool(inplace))
    if feature:
        shape = _call(R.feature_noise_shape, x.shape)
        strides = None
    else:
        shape = x.shape
        strides = R.dense_strides(x.shape, _strides(x))
    gen = _gen(generator)
    if x.dtype.kind != "f":
        # The noise is drawn in the input's dtype, then scaled in float: refused there.
        _call(R.bernoulli_, shape, 1.0 - p, dtype=x.dtype, generator=gen, strides=strides)
        raise GradcliError(
            f"result type Float can't be cast to the desired output type "
            f"{scalar_type_name(x.dtype)}",
            hint="dropout needs a float tensor (x.float())",
        )
    if alpha:
        noise, shift = _call(
            R.alpha_dropout_noise, shape, p, dtype=x.dtype, generator=gen, strides=strides
        )
        noise, shift = _strided(noise, strides), _strided(shift, strides)
        return _dropped(x, Tensor(noise), Tensor(shift), bool(inplace))
    noise = _call(R.dropout_mask, shape, p, dtype=x.dtype, generator=gen, strides=strides)
    return _dropped(x, Tensor(_strided(noise, strides)), None, bool(inplace))


def _strided(values: np.ndarray, strides: Any) -> np.ndarray:
    """values (a C-order array) laid out in memory with these element strides (None: as they
    are), as PyTorch's empty_like noise is: the product with the input then keeps the input's
    layout, as PyTorch's does (`F.dropout(w.t(), 0.5).stride()` is w.t()'s)."""
    if strides is None or values.ndim < 2 or values.shape == () or values.size == 0:
        return values
    buffer = np.empty(values.size, values.dtype)
    out = np.lib.stride_tricks.as_strided(
        buffer, values.shape, [st * values.itemsize for st in strides]
    )
    out[...] = values
    return out


def dropout(
    input: Any,  # noqa: A002 - PyTorch's name
    p: Any = 0.5,
    training: bool = True,
    inplace: bool = False,
    *,
    generator: Any = None,
) -> Tensor:
    """`F.dropout`: in training, input * mask / (1 - p) (a recorded multiplication, so the
    gradient is grad * mask / (1 - p)); the input itself when p == 0, not training or empty."""
    return _dropout_impl(input, p, training, inplace, feature=False, alpha=False)


def alpha_dropout(
    input: Any,  # noqa: A002
    p: Any = 0.5,
    training: bool = False,
    inplace: bool = False,
) -> Tensor:
    """`F.alpha_dropout` (training defaults to False, as PyTorch's)."""
    return _dropout_impl(input, p, training, inplace, feature=False, alpha=True)


def feature_alpha_dropout(
    input: Any,  # noqa: A002
    p: Any = 0.5,
    training: bool = False,
    inplace: bool = False,
) -> Tensor:
    return _dropout_impl(input, p, training, inplace, feature=True, alpha=True)


def _channel_dropout(
    fn: str,
    batched: int,
    input: Any,
    p: Any,
    training: Any,
    inplace: Any,  # noqa: A002
) -> Tensor:
    """F.dropout1d/2d/3d: feature dropout over (N, C, ...); an input without the batch dim
    (dropout1d's 2-D, dropout3d's 4-D) gets one for the draw, as PyTorch's unsqueeze(0)."""
    from .functional import squeeze, unsqueeze

    x = tensor_arg(input, "input")
    p = _dropout_p(p)
    dim = x.ndim
    if fn == "dropout1d" and dim not in (2, 3):
        raise GradcliError(
            f"dropout1d: Expected 2D or 3D input, but received a {dim}D input. Note that "
            "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial "
            "dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D "
            "inputs)."
        )
    if fn == "dropout2d" and dim not in (3, 4):
        hooks.warn(
            f"dropout2d: Received a {dim}-D input to dropout2d, which is deprecated and will "
            "result in an error in a future release. To retain the behavior and silence this "
            "warning, please use dropout instead. Note that dropout2d exists to provide "
            "channel-wise dropout on inputs with 2 spatial dimensions, a channel dimension, and "
            "an optional batch dimension (i.e. 3D or 4D inputs)."
        )
    if fn == "dropout2d" and dim == 3:
        hooks.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D "
            "dropout behavior is desired - input is interpreted as shape (N, C, L), where C is "
            "the channel dim. This behavior will change in a future release to interpret the "
            "input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D "
            "channel-wise dropout behavior, please switch to using dropout1d instead."
        )
    if fn == "dropout3d" and dim not in (4, 5):
        hooks.warn(
            f"dropout3d: Received a {dim}-D input to dropout3d, which is deprecated and will "
            "result in an error in a future release. To retain the behavior and silence this "
            "warning, please use dropout instead. Note that dropout3d exists to provide "
            "channel-wise dropout on inputs with 3 spatial dimensions, a channel dimension, and "
            "an optional batch dimension (i.e. 4D or 5D inputs)."
        )
    add_batch = batched and dim != batched
    if add_batch:
        x = x.unsqueeze_(0) if inplace else unsqueeze(x, 0)
    out = _dropout_impl(x, p, training, inplace, feature=True, alpha=False)
    if add_batch:
        out = out.squeeze_(0) if inplace else squeeze(out, 0)
    return out


def dropout1d(input: Any, p: Any = 0.5, training: bool = True, inplace: bool = False) -> Tensor:  # noqa: A002
    return _channel_dropout("dropout1d", 3, input, p, training, inplace)


def dropout2d(input: Any, p: Any = 0.5, training: bool = True, inplace: bool = False) -> Tensor:  # noqa: A002
    return _channel_dropout("dropout2d", 0, input, p, training, inplace)


def dropout3d(input: Any, p: Any = 0.5, training: bool = True, inplace: bool = False) -> Tensor:  # noqa: A002
    return _channel_dropout("dropout3d", 5, input, p, training, inplace)


# F's dropout family (also what nn.Dropout1d ... call).
DROPOUTS: dict[str, Callable[..., Tensor]] = {
    "dropout": dropout,
    "dropout1d": dropout1d,
    "dropout2d": dropout2d,
    "dropout3d": dropout3d,
    "alpha_dropout": alpha_dropout,
    "feature_alpha_dropout": feature_alpha_dropout,
}


# --- more distributions: x.geometric_(), x.log_normal_(), x.cauchy_(), torch.poisson ------------


def geometric_(x: Any, p: Any, *, generator: Any = None) -> Tensor:
    return _serial_fill("geometric_", x, generator, float(p))


def log_normal_(x: Any, mean: Any = 1.0, std: Any = 2.0, *, generator: Any = None) -> Tensor:
    return _serial_fill("log_normal_", x, generator, float(mean), float(std))


def cauchy_(x: Any, median: Any = 0.0, sigma: Any = 1.0, *, generator: Any = None) -> Tensor:
    return _serial_fill("cauchy_", x, generator, float(median), float(sigma))


def poisson(input: Any, generator: Any = None) -> Tensor:  # noqa: A002
    """`torch.poisson(rates)`: a new tensor of the rates' dtype, a PoissonBackward0 node (zero
    gradient) when the rates require grad."""
    t = tensor_arg(input, "input")
    if t.dtype.kind == "f" and t.data.size:
        # Knuth's product takes rate + 1 uniforms on average (below 10), PTRS about 2.5.
        with np.errstate(invalid="ignore"):
            rates = np.nan_to_num(t.data.astype(np.float64), nan=0.0)
        _serial_check("poisson", float(np.where(rates < 10, np.maximum(rates, 0) + 1, 2.5).sum()))
    values = _call(R.poisson, t.data, generator=_gen(generator))
    graph = _graph_inputs(t)
    return _draw_node(values, graph, "PoissonBackward0") if graph else Tensor(values)


def binomial(count: Any, prob: Any, generator: Any = None) -> Tensor:
    """`torch.binomial(count, prob)`: a new tensor of count's dtype (under PyTorch's
    NotImplemented node when either requires grad); count and prob of one floating dtype,
    broadcast (with PyTorch's warning where its output, made in count's shape, is resized)."""
    for i, (name, v) in enumerate((("count", count), ("prob", prob))):
        if not isinstance(v, Tensor):
            raise ArgumentTypeError("binomial", name, i + 1, "Tensor", pytype_name(v))
    n = tensor_arg(count, "count")
    p = tensor_arg(prob, "prob")
    if n.dtype.kind != "f":
        raise GradcliError(
            "binomial only supports floating-point dtypes for count, got: "
            f"{scalar_type_name(n.dtype)}"
        ).mirror("ValueError")
    if p.dtype != n.dtype:
        raise GradcliError(
            f"Found dtype {scalar_type_name(p.dtype)} but expected {scalar_type_name(n.dtype)}"
        ).pytorch()
    shape = broadcast_shape(n, p)  # PyTorch's error where they do not fit
    if tuple(n.shape) != tuple(shape):
        if n.data.size:
            # ATen's output is made in count's shape, then resized to the broadcast one
            hooks.warn(
                "An output with one or more elements was resized since it had shape "
                f"{list(n.shape)}, which does not match the required output shape "
                f"{list(shape)}. This behavior is deprecated, and in a future PyTorch "
                "release outputs will not be resized unless they have zero elements. You can "
                "explicitly reuse an out tensor t by resizing it, inplace, to zero elements "
                "with t.resize_(0)."
            )
        n = Tensor(np.broadcast_to(n.data, shape))
    if tuple(p.shape) != tuple(shape):
        p = Tensor(np.broadcast_to(p.data, shape))
    if n.data.size:
        # the inversion draws about count * p + 1 uniforms, BTRS a few
        with np.errstate(invalid="ignore"):
            q = np.minimum(p.data, 1 - p.data).astype(np.float64)
            mean = np.nan_to_num(np.maximum(n.data.astype(np.float64), 0) * q, nan=0.0)
        _serial_check("binomial", float(np.where(mean < 10, mean + 1, 3.0).sum()))
    values = _call(R.binomial, n.data, p.data, generator=_gen(generator))
    graph = _graph_inputs(count, prob)
    return _undifferentiable_draw(values, graph, "binomial") if graph else Tensor(values)


def standard_gamma(t: Tensor, *, double: bool = False) -> np.ndarray:
    """torch._standard_gamma's draws (Gamma(alpha, 1), PyTorch's exact sampler) for the
    distributions; `double`: _sample_dirichlet's float64 gammas. Sized before drawing."""
    _serial_check("standard_gamma", t.data.size)
    return _call(R.standard_gamma, t.data, double=double)


def new_generator(device: Any = "cpu") -> Generator:
    """`torch.Generator(device='cpu')` (a function: a program never holds a Python class)."""
    return Generator(device)


# Names a program reaches: torch.X, and the Tensor methods.
def _c_dropout_args(fn: str, p: Any, train: Any) -> float:
    """The C++ dropouts' arguments as PyTorch's parser and ATen check them: p a float (an int
    too), train a bool, p in [0, 1] a RuntimeError worded with C++'s double (`but got 2`)."""
    if isinstance(p, bool) or not isinstance(p, (int, float, np.integer, np.floating)):
        raise ArgumentTypeError(fn, "p", 2, "float", pytype_name(p))
    if not isinstance(train, bool):
        raise ArgumentTypeError(fn, "train", 3, "bool", pytype_name(train))
    if not 0.0 <= p <= 1.0:
        raise GradcliError(
            f"dropout probability has to be between 0 and 1, but got {float(p):g}"
        ).mirror("RuntimeError")
    return float(p)


def _torch_dropout(input: Any, p: Any, train: Any) -> Any:  # noqa: A002 - torch.dropout's
    """torch.dropout(input, p, train): every argument given."""
    return dropout(input, _c_dropout_args("dropout", p, train), train)


def _torch_alpha_dropout(input: Any, p: Any, train: Any) -> Any:  # noqa: A002 - torch's
    return alpha_dropout(input, _c_dropout_args("alpha_dropout", p, train), train)


def _torch_feature_alpha_dropout(input: Any, p: Any, train: Any) -> Any:  # noqa: A002
    p = _c_dropout_args("feature_alpha_dropout", p, train)
    return feature_alpha_dropout(input, p, train)


NAMES = declare(
    ("manual_seed", "torch", manual_seed, ""),
    ("seed", "torch", seed, ""),
    ("initial_seed", "torch", initial_seed, ""),
    ("get_rng_state", "torch", get_rng_state, ""),
    ("set_rng_state", "torch", set_rng_state, ""),
    ("Generator", "torch", new_generator, ""),
    ("rand", "torch", rand, ""),
    ("randn", "torch", randn, ""),
    ("rand_like", "torch", rand_like, ""),
    ("randn_like", "torch", randn_like, ""),
    ("randint", "torch", randint, ""),
    ("randint_like", "torch", randint_like, ""),
    ("randperm", "torch", randperm, ""),
    ("normal", "torch", normal, ""),
    ("poisson", "torch", poisson, ""),
    ("binomial", "torch", binomial, ""),
    ("bernoulli", "torch Tensor", bernoulli, ""),
    ("multinomial", "torch Tensor", multinomial, ""),
    # torch.dropout(input, p, train); F.dropout is `dropout` itself
    ("dropout", "torch", _torch_dropout, "composition of mul"),
    ("dropout", "F", dropout, "composition of mul"),
    ("alpha_dropout", "torch", _torch_alpha_dropout, "composition of mul add"),
    ("feature_alpha_dropout", "torch", _torch_feature_alpha_dropout, "composition of mul add"),
    ("alpha_dropout", "F", alpha_dropout, "composition of mul add"),
    ("feature_alpha_dropout", "F", feature_alpha_dropout, "composition of mul add"),
    ("dropout1d", "F", dropout1d, "composition of mul reshape"),
    ("dropout2d", "F", dropout2d, "composition of mul"),
    ("dropout3d", "F", dropout3d, "composition of mul reshape"),
    # in place: the new values are constants (x * 0 + values: no gradient flows to x)
    ("uniform_", "Tensor", uniform_, "composition of mul"),
    ("normal_", "Tensor", normal_, "composition of mul"),
    ("random_", "Tensor", random_, "composition of mul"),
    ("bernoulli_", "Tensor", bernoulli_, "composition of mul"),
    ("exponential_", "Tensor", exponential_, "composition of mul"),
    ("geometric_", "Tensor", geometric_, "composition of mul"),
    ("log_normal_", "Tensor", log_normal_, "composition of mul"),
    ("cauchy_", "Tensor", cauchy_, "composition of mul"),
)


def laid_out_like(values: np.ndarray, like: np.ndarray) -> np.ndarray:
    """PyTorch's `*_like` (preserve_format) keeps a transposed or permuted input's layout
    (`core.layout.like`): `torch.zeros_like(x.t())` is laid out as `x.t()`, so a later
    `uniform_()` or `bernoulli_()` on it fills in that order, and `.stride()` is PyTorch's."""
    from ..core.layout import like as like_layout

    return like_layout(values, like)
