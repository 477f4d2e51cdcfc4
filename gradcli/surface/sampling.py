"""PyTorch's random functions as a program calls them (`torch.manual_seed`, `torch.randn`,
`x.normal_()`, `torch.Generator()`, `F.dropout`...), drawing from `random`'s bit-exact copy of
PyTorch's CPU generator, so that a program prints PyTorch's numbers.

The default generator starts from `--seed` (default 0) where PyTorch's would be
nondeterministic. A draw without `dtype=` is made in PyTorch's default dtype (float32 unless the
program called `set_default_dtype`) and then widened to gradcli's default (float64 in the
analysis commands), so that the analysis runs on PyTorch's numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core.dtypes import check_dtype, scalar_type_name
from ..core.tensor import Settings, Tensor, typename
from ..ops.arithmetic import mul_t, tensor_arg
from . import random as R
from .args import NO_SIZE, int_arg, shape_arg, sizes_arg
from .declare import declare


class Generator:
    """`torch.Generator()`: a generator of its own, passed as `generator=`."""

    # What a program may call on it (the interpreter reads this table, nothing else).
    PROGRAM_ATTRIBUTES = ("manual_seed", "seed", "initial_seed", "get_state", "set_state", "device")

    def __init__(self, device: Any = "cpu") -> None:
        if device not in ("cpu", None) and getattr(device, "type", None) != "cpu":
            raise GradcliError(
                f"Generator(device={device!r}): gradcli has the CPU generator only",
                hint="write torch.Generator() (the CPU one)",
            )
        self.gen = R.Generator(fallback_seed=Settings.seed)
        self.device = "cpu"

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
        return "<torch._C.Generator object>"


class _DefaultGenerator(Generator):
    """`torch.default_generator` and what `torch.manual_seed` returns: the module's generator."""

    def __init__(self) -> None:
        self.device = "cpu"

    @property
    def gen(self) -> R.Generator:  # type: ignore[override]
        return R.default_generator()


DEFAULT = _DefaultGenerator()


def reset(seed: int) -> None:
    """Start a run: the default generator seeded with `--seed` (also what `torch.seed()`
    reseeds with, where PyTorch would take a nondeterministic seed)."""
    gen = R.default_generator()
    # Any integer is a seed, as for torch.manual_seed's negative ones: it wraps modulo 2**64.
    gen.fallback_seed = int(seed) % 2**64
    gen.manual_seed(gen.fallback_seed)


def _call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """The random module raises Python's exceptions with PyTorch's words: the program's error."""
    try:
        return fn(*args, **kwargs)
    except (RuntimeError, ValueError, TypeError, OverflowError) as e:
        raise GradcliError(str(e)) from None


def _seed_arg(seed: Any) -> int:
    if isinstance(seed, Tensor) and seed.data.size == 1 and seed.dtype.kind in "iu":
        seed = int(seed.data.reshape(()))
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        if isinstance(seed, float) and seed.is_integer():
            return int(seed)  # int(seed) as torch.manual_seed does
        raise GradcliError(
            f"manual_seed expected a long, but got {typename(seed)}", hint="pass an int"
        )
    return int(seed)


def _state_arg(state: Any) -> np.ndarray:
    if not isinstance(state, Tensor):
        raise GradcliError(
            f"expected a torch.ByteTensor, but got {typename(state)}",
            hint="pass what torch.get_rng_state() returned",
        )
    if state.dtype != np.uint8:
        raise GradcliError(
            "RNG state must be a torch.ByteTensor",
            found=f"a tensor of dtype {scalar_type_name(state.dtype)}",
        )
    return state.data


def _gen(generator: Any) -> R.Generator | None:
    if generator is None:
        return None
    if not isinstance(generator, Generator):
        raise GradcliError(
            f"generator must be a torch.Generator, not {typename(generator)}",
            hint="g = torch.Generator().manual_seed(0), then generator=g",
        )
    return generator.gen


# --- the generator's functions -----------------------------------------------------------------


def manual_seed(seed: Any) -> Generator:
    _call(R.manual_seed, _seed_arg(seed))
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


def _float_draw(dtype: Any, fn: str) -> tuple[np.dtype, np.dtype]:
    """(the dtype to draw in, the dtype of the result): without `dtype`, PyTorch's default
    (then widened to gradcli's default); else the dtype asked, which must be a float."""
    if dtype is None:
        return Settings.draw_dtype, Settings.default_dtype
    dt = check_dtype(dtype, fn=fn)
    if dt.kind != "f":
        raise GradcliError(
            f"\"{fn}\" not implemented for '{scalar_type_name(dt)}'",
            hint="random floats need a float dtype (torch.float32 or torch.float64)",
        )
    return dt, dt


def _like_draw(t: Tensor, dtype: Any, fn: str) -> tuple[np.dtype, np.dtype]:
    if dtype is None:
        if t.dtype == Settings.default_dtype:
            return Settings.draw_dtype, t.dtype  # a tensor of the default dtype: PyTorch's
        return _float_draw(t.dtype, fn)
    return _float_draw(dtype, fn)


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
        draw_dt, out_dt = _float_draw(dtype, fn)
        values = _call(draw, shape, dtype=draw_dt, generator=_gen(generator))
        return _new(values, out_dt, requires_grad)

    make.__name__ = fn
    return make


rand = _sized("rand", lambda shape, **kw: R.rand(shape, **kw))
randn = _sized("randn", lambda shape, **kw: R.randn(shape, **kw))


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
        draw_dt, out_dt = _like_draw(t, dtype, fn)
        values = _call(draw, t.shape, dtype=draw_dt, generator=_gen(generator))
        return _new(values, out_dt, requires_grad)

    make.__name__ = fn
    return make


rand_like = _like("rand_like", lambda shape, **kw: R.rand(shape, **kw))
randn_like = _like("randn_like", lambda shape, **kw: R.randn(shape, **kw))


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
        raise GradcliError(
            'randint() missing 1 required positional arguments: "size"',
            hint="torch.randint(low, high, (n,)) or torch.randint(high, (n,))",
        )
    if low is None and high is None:
        if len(pos) == 1:
            low, high = 0, pos[0]
        elif len(pos) == 2:
            low, high = pos
        else:
            raise GradcliError("randint() takes high, or low and high, then the size")
    elif high is None:
        high = pos[0] if pos else None
        if high is None:
            raise GradcliError("randint() needs high")
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
    values = _call(R.randint, lo, hi, t.shape, dtype=dt, generator=_gen(generator))
    return _new(values, dt, requires_grad)


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
    if not isinstance(mean, Tensor) and not isinstance(std, Tensor):
        if size is None:
            raise GradcliError(
                "normal(float mean, float std) needs a size",
                hint="torch.normal(0.0, 1.0, size=(3,))",
            )
        shape = shape_arg((size,) if isinstance(size, int) else tuple(size))
        draw_dt, out_dt = _float_draw(dtype, "normal")
        values = _call(R.normal_, shape, float(mean), float(std), dtype=draw_dt, generator=gen)
        return _new(values, out_dt, requires_grad)
    m = mean.data if isinstance(mean, Tensor) else float(mean)
    s = std.data if isinstance(std, Tensor) else float(std)
    for t in (mean, std):
        if isinstance(t, Tensor) and t.dtype.kind != "f":
            raise GradcliError(
                f"\"normal_kernel_cpu\" not implemented for '{scalar_type_name(t.dtype)}'",
                hint="mean and std must be float tensors",
            )
    values = _call(R.normal, m, s, generator=gen)
    return Tensor(values, requires_grad=requires_grad)


def bernoulli(input: Any, p: Any = None, *, generator: Any = None) -> Tensor:  # noqa: A002
    t = tensor_arg(input, "input")
    if t.dtype.kind != "f":
        raise GradcliError(
            f"\"bernoulli_tensor_cpu_self_\" not implemented for '{scalar_type_name(t.dtype)}'"
        )
    if p is not None:
        values = _call(R.bernoulli_, t.shape, float(p), dtype=t.dtype, generator=_gen(generator))
    else:
        values = _call(R.bernoulli, t.data, generator=_gen(generator))
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
    return Tensor(_call(R.multinomial, t.data, n, bool(replacement), generator=_gen(generator)))


# --- in place: x.uniform_(), x.normal_(), ... ---------------------------------------------------


def _fill(x: Tensor, values: np.ndarray) -> Tensor:
    from .functional import inplace_update

    return inplace_update(x, values.astype(x.dtype, copy=False))


def _float_target(x: Any, fn: str) -> Tensor:
    x = tensor_arg(x, "self")
    if x.dtype.kind != "f":
        raise GradcliError(
            f"\"{fn}\" not implemented for '{scalar_type_name(x.dtype)}'",
            hint="fill a float tensor (x.float())",
        )
    return x


def uniform_(x: Any, a: Any = 0.0, b: Any = 1.0, *, generator: Any = None, **kw: Any) -> Tensor:
    a, b = kw.pop("from", a), kw.pop("to", b)
    x = _float_target(x, "check_uniform_bounds")
    v = _call(
        R.uniform_,
        x.shape,
        float(a),
        float(b),
        dtype=x.dtype,
        generator=_gen(generator),
        strides=_strides(x),
    )
    return _fill(x, v)


def normal_(x: Any, mean: Any = 0.0, std: Any = 1.0, *, generator: Any = None) -> Tensor:
    x = _float_target(x, "normal_kernel_cpu")
    v = _call(
        R.normal_,
        x.shape,
        float(mean),
        float(std),
        dtype=x.dtype,
        generator=_gen(generator),
        strides=_strides(x),
    )
    return _fill(x, v)


def random_(x: Any, *bounds: Any, generator: Any = None, **kw: Any) -> Tensor:
    x = tensor_arg(x, "self")
    if "from" in kw or "to" in kw:
        bounds = (kw.pop("from", 0), kw.pop("to", None))
    ints = tuple(None if b is None else int_arg(b, "bound") for b in bounds)
    v = _call(
        R.random_, x.shape, *ints, dtype=x.dtype, generator=_gen(generator), strides=_strides(x)
    )
    return _fill(x, v)


def bernoulli_(x: Any, p: Any = 0.5, *, generator: Any = None) -> Tensor:
    x = tensor_arg(x, "self")
    prob = p.data if isinstance(p, Tensor) else float(p)
    v = _call(
        R.bernoulli_, x.shape, prob, dtype=x.dtype, generator=_gen(generator), strides=_strides(x)
    )
    return _fill(x, v)


def exponential_(x: Any, lambd: Any = 1.0, *, generator: Any = None) -> Tensor:
    x = _float_target(x, "exponential_cpu")
    v = _call(
        R.exponential_,
        x.shape,
        float(lambd),
        dtype=x.dtype,
        generator=_gen(generator),
        strides=_strides(x),
    )
    return _fill(x, v)


# --- dropout -------------------------------------------------------------------------------------


def dropout(
    input: Any,  # noqa: A002
    p: Any = 0.5,
    training: bool = True,
    inplace: bool = False,
    *,
    generator: Any = None,
) -> Tensor:
    """`F.dropout`: in training, input * mask / (1 - p) (a recorded multiplication, so the
    gradient is grad * mask / (1 - p)); the input itself when p == 0, not training or empty."""
    x = tensor_arg(input, "input")
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0.0 <= p <= 1.0:
        raise GradcliError(f"dropout probability has to be between 0 and 1, but got {p}")
    p = float(p)
    if p == 0.0 or not training or x.data.size == 0:
        return x
    if x.dtype.kind != "f":
        raise GradcliError(
            f"dropout: expected a floating point tensor, got {scalar_type_name(x.dtype)}"
        )
    if p == 1.0:
        return mul_t(x, Tensor(np.zeros((), x.dtype)))
    mask = _call(R.dropout_mask, x.shape, p, dtype=x.dtype, generator=_gen(generator))
    return mul_t(x, Tensor(mask))


def new_generator(device: Any = "cpu") -> Generator:
    """`torch.Generator(device='cpu')` (a function: a program never holds a Python class)."""
    return Generator(device)


# Names a program reaches: torch.X, and the Tensor methods.
def _torch_dropout(input: Any, p: Any, train: Any) -> Any:  # noqa: A002 - torch.dropout's
    """torch.dropout(input, p, train): every argument given."""
    return dropout(input, p, train)


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
    ("bernoulli", "torch Tensor", bernoulli, ""),
    ("multinomial", "torch Tensor", multinomial, ""),
    # torch.dropout(input, p, train); F.dropout is `dropout` itself
    ("dropout", "torch", _torch_dropout, "composition of mul"),
    ("dropout", "F", dropout, "composition of mul"),
    # in place: the new values are constants (x * 0 + values: no gradient flows to x)
    ("uniform_", "Tensor", uniform_, "composition of mul"),
    ("normal_", "Tensor", normal_, "composition of mul"),
    ("random_", "Tensor", random_, "composition of mul"),
    ("bernoulli_", "Tensor", bernoulli_, "composition of mul"),
    ("exponential_", "Tensor", exponential_, "composition of mul"),
)
