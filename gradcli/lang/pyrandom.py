"""Python's `random` module and NumPy's legacy `np.random` functions, as programs use them
beside torch (d2l shuffles its minibatch indices with `random.shuffle`; forum answers make
their data with `np.random.seed(0); X = np.random.randn(100, 1)`).

Both are the real generators (the standard library's `random.Random`, NumPy's
`RandomState`), so a seeded program prints what Python prints. Python and NumPy seed them from
the operating system; gradcli seeds both with the run's `--seed` (default 0) at the start of
every run, so a program that sets no seed prints the same numbers on every run.

Every size is checked before anything is drawn (the list and tensor element limits, the
integer size limit); a sequence is shuffled only when it is a list; nothing here reaches a
program's objects beyond reading a sequence's items.
"""

from __future__ import annotations

import collections
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError
from ..core.tensor import Tensor, _GradMode, repeated_change, typename
from ..ops.arithmetic import size_check
from .values import Builtin

# The run's generators (reset by `reset` when a run starts), both made at the first draw
# (start-up: neither `random` nor `np.random` is imported by a program that does not draw).
_PY_GEN: list[Any] = [None]
_PY_SEED = [0]
_NP: list[np.random.RandomState | None] = [None]
_SEED = [0]


def reset(seed: int) -> None:
    """A run starts: both generators from `--seed`."""
    _PY_SEED[0] = int(seed)
    _PY_GEN[0] = None
    _SEED[0] = int(seed) % 2**32
    _NP[0] = None


def _py() -> Any:
    """The run's `random.Random`, seeded with `--seed` (`random.Random(n)` is `seed(n)`)."""
    gen = _PY_GEN[0]
    if gen is None:
        import random

        gen = _PY_GEN[0] = random.Random(_PY_SEED[0])
    if _GradMode.repeats:  # a draw inside vmap: PyTorch's one run draws once
        repeated_change(gen, "the random module's state (a draw)")
    return gen


def _np_state() -> np.random.RandomState:
    state = _NP[0]
    if state is None:
        state = _NP[0] = np.random.RandomState(_SEED[0])
    if _GradMode.repeats:
        repeated_change(state, "NumPy's random state (a draw)")
    return state


def _error(message: str, kind: str = "TypeError", hint: str | None = None) -> GradcliError:
    return GradcliError(message, hint=hint).mirror(kind)


def _int(v: Any, what: str, fn: str) -> int:
    if isinstance(v, Tensor) and v.data.size == 1 and v.dtype.kind in "iu":
        v = int(v.item())
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise _error(f"{fn}: {what} must be an integer, not {typename(v)}")
    v = int(v)
    limits.INT_BITS.check(v.bit_length(), "the size of an integer in bits")
    return v


def _number(v: Any, what: str, fn: str) -> float:
    if isinstance(v, Tensor) and v.data.size == 1:
        v = v.item()
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise _error(f"{fn}: {what} must be a number, not {typename(v)}")
    return float(v)


def _sequence(seq: Any, fn: str) -> Any:
    """A sequence a draw may read items of: list, tuple, range, str (as Python's random
    accepts any sequence; a tensor or an array by its first axis)."""
    if isinstance(seq, (list, tuple, range, str)):
        return seq
    if isinstance(seq, collections.deque):  # (a Sequence to Python: a replay memory's deque)
        return list(seq)
    if isinstance(seq, (Tensor, np.ndarray)) and seq.ndim > 0:
        return seq
    raise _error(
        f"{fn}: Population must be a sequence.  For dicts or sets, use sorted(d).",
        hint="give it a list, a tuple, a range or a string",
    )


# --- Python's random -------------------------------------------------------------------------


def seed(a: Any = None, version: int = 2) -> None:
    if a is None:  # Python's: the operating system's randomness; gradcli's: --seed
        from ..core.tensor import Settings

        a = Settings.seed
    if isinstance(a, Tensor):
        raise _error(
            "The only supported seed types are: None, int, float, str, bytes, and bytearray.",
            hint="give random.seed a Python number (x.item())",
        )
    if isinstance(a, (int, np.integer)) and not isinstance(a, bool):
        limits.INT_BITS.check(int(a).bit_length(), "the size of an integer in bits")
        a = int(a)
    elif isinstance(a, str):
        limits.STRING_CHARS.check(len(a), "the length of the seed")
    elif not isinstance(a, float):
        raise _error(
            "The only supported seed types are: None, int, float, str, bytes, and bytearray."
        )
    _py().seed(a, version)


def random() -> float:
    return _py().random()


def uniform(a: Any, b: Any) -> float:
    return _py().uniform(_number(a, "a", "uniform"), _number(b, "b", "uniform"))


def gauss(mu: Any = 0.0, sigma: Any = 1.0) -> float:
    return _py().gauss(_number(mu, "mu", "gauss"), _number(sigma, "sigma", "gauss"))


def normalvariate(mu: Any = 0.0, sigma: Any = 1.0) -> float:
    return _py().normalvariate(
        _number(mu, "mu", "normalvariate"), _number(sigma, "sigma", "normalvariate")
    )


def expovariate(lambd: Any = 1.0) -> float:
    rate = _number(lambd, "lambd", "expovariate")
    if rate == 0:
        raise _error("float division by zero", "ZeroDivisionError")
    return _py().expovariate(rate)


def randint(a: Any, b: Any) -> int:
    lo, hi = _int(a, "a", "randint"), _int(b, "b", "randint")
    if hi < lo:
        raise _error(f"empty range in randrange({lo}, {hi + 1})", "ValueError")
    return _py().randint(lo, hi)


def randrange(start: Any, stop: Any = None, step: Any = 1) -> int:
    args = [_int(start, "start", "randrange")]
    if stop is not None:
        args.append(_int(stop, "stop", "randrange"))
    step = _int(step, "step", "randrange")
    try:
        return _py().randrange(*args, step) if stop is not None else _py().randrange(*args)
    except ValueError as e:
        raise _error(str(e), "ValueError") from None


def getrandbits(k: Any) -> int:
    bits = _int(k, "k", "getrandbits")
    if bits < 0:
        raise _error("number of bits must be non-negative", "ValueError")
    limits.INT_BITS.check(bits, "the size of an integer in bits")
    return _py().getrandbits(bits)


def choice(seq: Any) -> Any:
    seq = _sequence(seq, "choice")
    if len(seq) == 0:
        raise _error("Cannot choose from an empty sequence", "IndexError")
    return seq[_py()._randbelow(len(seq))]


def choices(population: Any, weights: Any = None, *, cum_weights: Any = None, k: Any = 1) -> list:
    population = _sequence(population, "choices")
    count = _int(k, "k", "choices")
    limits.LIST_ITEMS.check(max(count, 0), "the number of items choices() would make")
    for name, w in (("weights", weights), ("cum_weights", cum_weights)):
        if w is not None:
            if not isinstance(w, (list, tuple)):
                raise _error(f"choices: {name} must be a list of numbers, not {typename(w)}")
            for v in w:
                _number(v, name, "choices")
    try:
        return _py().choices(population, weights, cum_weights=cum_weights, k=count)
    except (ValueError, TypeError, IndexError) as e:
        raise _error(str(e), type(e).__name__) from None


def sample(population: Any, k: Any, *, counts: Any = None) -> list:
    if counts is not None:
        raise GradcliError(
            "random.sample(..., counts=) is not supported by gradcli",
            hint="repeat the items in the population instead",
        )
    population = _sequence(population, "sample")
    count = _int(k, "k", "sample")
    if not 0 <= count <= len(population):
        raise _error("Sample larger than population or is negative", "ValueError")
    limits.LIST_ITEMS.check(count, "the number of items sample() would make")
    return _py().sample(population, count)


def shuffle(x: Any) -> None:
    if not isinstance(x, list):
        raise GradcliError(
            f"random.shuffle of a {typename(x)} is not supported by gradcli",
            hint="shuffle a list (indices = list(range(n)); random.shuffle(indices)), or use "
            "torch.randperm(n)",
        )
    _py().shuffle(x)


PYTHON_RANDOM: dict[str, Callable[..., Any]] = {
    f.__name__: f
    for f in (
        seed,
        random,
        uniform,
        gauss,
        normalvariate,
        expovariate,
        randint,
        randrange,
        getrandbits,
        choice,
        choices,
        sample,
        shuffle,
    )
}


# --- numpy.random (the legacy functions) -----------------------------------------------------


def _size(size: Any, fn: str) -> tuple[int, ...] | None:
    if size is None:
        return None
    dims = (size,) if isinstance(size, (int, np.integer)) else size
    if not isinstance(dims, (tuple, list)):
        raise _error(f"numpy.random.{fn}: size must be an int or a tuple of ints")
    shape = tuple(_int(d, "size", f"numpy.random.{fn}") for d in dims)
    if any(d < 0 for d in shape):
        raise _error("negative dimensions are not allowed", "ValueError")
    size_check(shape, f"the array numpy.random.{fn} would make")
    return shape


def _dims(args: tuple, fn: str) -> tuple[int, ...]:
    """rand(d0, d1, ...) / randn(...): each dimension an integer, refused in NumPy's words
    (`np.random.randn((5, 5))`: "'tuple' object cannot be interpreted as an integer")."""
    for d in args:
        if type(d) is bool:
            raise _error("an integer is required")
        if not isinstance(d, (int, np.integer, Tensor)):
            raise _error(f"'{typename(d)}' object cannot be interpreted as an integer")
    return _size(tuple(args), fn) or ()


def _np_seed(seed: Any = None) -> None:
    if seed is None:
        from ..core.tensor import Settings

        seed = Settings.seed % 2**32
    value = _int(seed, "seed", "numpy.random.seed")
    if not 0 <= value < 2**32:
        raise _error("Seed must be between 0 and 2**32 - 1", "ValueError")
    _SEED[0] = value
    _NP[0] = np.random.RandomState(value)


def _np_rand(*dims: Any) -> Any:
    shape = _dims(dims, "rand")
    return _np_state().random_sample(shape) if shape else _np_state().random_sample()


def _np_randn(*dims: Any) -> Any:
    shape = _dims(dims, "randn")
    return _np_state().standard_normal(shape) if shape else _np_state().standard_normal()


_REQUIRED = object()  # a distribution's parameter without a default

# NumPy's other distributions a data-making line draws from (`np.random.binomial(10, 0.3,
# size=5)`): their parameters and defaults, the same names on RandomState and Generator. Each
# is NumPy's own draw from the program's seeded state; parameters are single numbers.
DISTRIBUTIONS: dict[str, tuple[tuple[str, ...], tuple]] = {
    "binomial": (("n", "p"), (_REQUIRED, _REQUIRED)),
    "negative_binomial": (("n", "p"), (_REQUIRED, _REQUIRED)),
    "poisson": (("lam",), (1.0,)),
    "geometric": (("p",), (_REQUIRED,)),
    "beta": (("a", "b"), (_REQUIRED, _REQUIRED)),
    "gamma": (("shape", "scale"), (_REQUIRED, 1.0)),
    "standard_gamma": (("shape",), (_REQUIRED,)),
    "lognormal": (("mean", "sigma"), (0.0, 1.0)),
    "laplace": (("loc", "scale"), (0.0, 1.0)),
    "logistic": (("loc", "scale"), (0.0, 1.0)),
    "gumbel": (("loc", "scale"), (0.0, 1.0)),
    "rayleigh": (("scale",), (1.0,)),
    "chisquare": (("df",), (_REQUIRED,)),
    "standard_t": (("df",), (_REQUIRED,)),
    "standard_cauchy": ((), ()),
    "standard_exponential": ((), ()),
    "weibull": (("a",), (_REQUIRED,)),
    "pareto": (("a",), (_REQUIRED,)),
    "power": (("a",), (_REQUIRED,)),
    "vonmises": (("mu", "kappa"), (_REQUIRED, _REQUIRED)),
    "triangular": (("left", "mode", "right"), (_REQUIRED, _REQUIRED, _REQUIRED)),
    "f": (("dfnum", "dfden"), (_REQUIRED, _REQUIRED)),
    "zipf": (("a",), (_REQUIRED,)),
    "logseries": (("p",), (_REQUIRED,)),
    "wald": (("mean", "scale"), (_REQUIRED, _REQUIRED)),
    "noncentral_chisquare": (("df", "nonc"), (_REQUIRED, _REQUIRED)),
    "noncentral_f": (("dfnum", "dfden", "nonc"), (_REQUIRED, _REQUIRED, _REQUIRED)),
    "hypergeometric": (("ngood", "nbad", "nsample"), (_REQUIRED, _REQUIRED, _REQUIRED)),
}


def _zipf_tries(state: Any, a: Any, shape: tuple[int, ...] | None) -> None:
    """NumPy's legacy zipf draws X = floor(U ** (-1 / (a - 1))) until X fits in an int64: for
    an `a` near 1 almost every try overflows (a = 1 + 1e-7 takes about 10**8 tries per draw,
    in one uninterruptible call). The tries expected for all the draws are bounded first;
    the Generator's algorithm has no such loop."""
    if not isinstance(state, np.random.RandomState):
        return
    least = float(np.nanmin(a)) if isinstance(a, np.ndarray) and a.size else a
    if not isinstance(least, float) or not least > 1.0 or math.isinf(least):
        return  # (NumPy's own error for a <= 1 or NaN)
    accept = -math.expm1(-63 * (least - 1) * math.log(2))
    draws = math.prod(shape) if shape is not None else (a.size if isinstance(a, np.ndarray) else 1)
    tries = math.ceil(max(draws, 1) / accept)
    limits.TENSOR_ELEMENTS.check(
        tries,
        f"the tries numpy.random.zipf would make for a = {least!r} (about "
        f"{math.ceil(1 / accept):,} per draw)",
    )


def _parameters(values: dict[str, Any], shape: tuple[int, ...] | None, fn: str) -> dict:
    """A distribution's parameters as NumPy takes them: numbers, or arrays (a list, a NumPy
    array: `np.random.normal(means, 0.1)` draws one number per mean) whose broadcast shape,
    the draw's when no size is given, is checked against the size limit first."""
    from .arrays import to_array

    out: dict[str, Any] = {}
    shapes = []
    for key, v in values.items():
        if isinstance(v, Tensor) and v.data.size != 1:
            raise GradcliError(
                f"{fn} with a tensor of {key} is not supported by gradcli",
                hint=f"give {key} as a NumPy array: {key}.numpy()",
            )
        if isinstance(v, (list, tuple, np.ndarray)):
            a = to_array(list(v) if isinstance(v, tuple) else v)
            if a.dtype.kind not in "biuf":
                raise _error(f"{fn}: {key} must be numbers, not an array of {a.dtype}")
            out[key] = a.astype(np.float64)
            shapes.append(a.shape)
        else:
            out[key] = _number(v, key, fn)
    if shapes and shape is None:
        try:
            drawn = np.broadcast_shapes(*shapes)
        except ValueError as e:
            raise _error(str(e), "ValueError") from None
        size_check(drawn, f"the array {fn} would make")
    return out


def _with_size(name: str, params: tuple[str, ...], defaults: tuple) -> Callable[..., Any]:
    """np.random.NAME(*params, size=None): numbers for the parameters, the size checked."""

    def draw(*args: Any, **kwargs: Any) -> Any:
        if len(args) > len(params) + 1:
            raise _error(f"numpy.random.{name}() takes at most {len(params) + 1} arguments")
        values = dict(zip(params, defaults, strict=True))
        values.update(zip((*params, "size"), args))
        for key, v in kwargs.items():
            if key not in (*params, "size"):
                raise _error(f"numpy.random.{name}() got an unexpected keyword argument '{key}'")
            values[key] = v
        for key in params:
            if values[key] is _REQUIRED:
                raise _error(f"{name}() missing required argument '{key}'")
        shape = _size(values.pop("size", None), name)
        numbers = _parameters(values, shape, f"numpy.random.{name}")
        if name == "zipf":
            _zipf_tries(_np_state(), numbers["a"], shape)
        try:
            return getattr(_np_state(), name)(**numbers, size=shape)
        except ValueError as e:
            raise _error(str(e), "ValueError") from None

    return draw


# NumPy's draws of vectors (`np.random.multivariate_normal(mean, cov, 100)`, a Dirichlet's
# mixture weights): their parameters' names, whether the last is a count `n`, and how the
# length k of each vector is read. The result is size + (k,); the covariance's factorisation
# costs k**3, checked against the linear-algebra work limit before NumPy runs.
VECTOR_DISTRIBUTIONS: dict[str, tuple[str, ...]] = {
    "multivariate_normal": ("mean", "cov"),
    "dirichlet": ("alpha",),
    "multinomial": ("n", "pvals"),
}


def _vector_array(v: Any, key: str, fn: str, ndim: int) -> np.ndarray:
    from .arrays import to_array

    if isinstance(v, Tensor):
        raise GradcliError(
            f"{fn} with a tensor of {key} is not supported by gradcli",
            hint=f"give {key} as a NumPy array: {key}.numpy()",
        )
    a = to_array(list(v) if isinstance(v, tuple) else v)
    if a.dtype.kind not in "biuf":
        raise _error(f"{fn}: {key} must be numbers, not an array of {a.dtype}")
    if a.ndim != ndim:
        what = "1 dimensional" if ndim == 1 else "2 dimensional and square"
        raise _error(f"{key} must be {what}", "ValueError")
    return a.astype(np.float64)


def _vector_draw(name: str) -> Callable[..., Any]:
    params = VECTOR_DISTRIBUTIONS[name]
    fn = f"numpy.random.{name}"

    def draw(*args: Any, **kwargs: Any) -> Any:
        accepted = (*params, "size")
        if len(args) > len(accepted):
            raise _error(f"{name}() takes at most {len(accepted)} arguments")
        values = dict(zip(accepted, args))
        for key, v in kwargs.items():
            if key not in accepted and key not in ("check_valid", "tol", "method"):
                raise _error(f"{name}() got an unexpected keyword argument '{key}'")
            if key in values:
                raise _error(f"{name}() got multiple values for argument '{key}'")
            values[key] = v
        for key in params:
            if key not in values:
                raise _error(f"{name}() missing required argument '{key}'")
        shape = _size(values.get("size"), name) or ()
        if name == "multivariate_normal":
            mean = _vector_array(values["mean"], "mean", fn, 1)
            cov = _vector_array(values["cov"], "cov", fn, 2)
            k = int(mean.size)
            if cov.shape != (k, k):
                raise _error("mean and cov must have same length", "ValueError")
            limits.LINALG_WORK.check(k**3, f"the work of {fn}")
            extra = {key: values[key] for key in ("check_valid", "tol", "method") if key in values}
            for key, v in extra.items():
                if not isinstance(v, (str, float, int)) or isinstance(v, bool):
                    raise _error(f"{name}(): {key} must be a string or a number")
            call: Callable[[], Any] = lambda: _np_state().multivariate_normal(  # noqa: E731
                mean, cov, size=shape or None, **extra
            )
        elif name == "dirichlet":
            alpha = _vector_array(values["alpha"], "alpha", fn, 1)
            k = int(alpha.size)
            call = lambda: _np_state().dirichlet(alpha, size=shape or None)  # noqa: E731
        else:
            count = _int(values["n"], "n", fn)
            pvals = _vector_array(values["pvals"], "pvals", fn, 1)
            k = int(pvals.size)
            call = lambda: _np_state().multinomial(count, pvals, size=shape or None)  # noqa: E731
        size_check((*shape, k), f"the array {fn} would make")
        import warnings

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                out = call()
            except (ValueError, np.linalg.LinAlgError) as e:
                raise _error(str(e), "ValueError") from None
        from ..core import hooks

        for w in caught:
            hooks.warn(f"{w.category.__name__}: {w.message}")
        return out

    draw.__name__ = name
    return draw


def _np_randint(low: Any, high: Any = None, size: Any = None, dtype: Any = int) -> Any:
    lo = _int(low, "low", "numpy.random.randint")
    hi = None if high is None else _int(high, "high", "numpy.random.randint")
    if dtype is not int:
        raise GradcliError(
            "numpy.random.randint(dtype=) is not supported by gradcli", hint="leave dtype out"
        )
    try:
        return _np_state().randint(lo, hi, size=_size(size, "randint"))
    except ValueError as e:
        raise _error(str(e), "ValueError") from None


def _np_bytes(length: Any) -> bytes:
    """`np.random.bytes(n)`: n random bytes of the state's stream (bounded as a string)."""
    n = _int(length, "length", "numpy.random.bytes")
    limits.STRING_CHARS.check(max(n, 0), "the length of the bytes")
    try:
        return _np_state().bytes(n)
    except ValueError as e:
        raise _error(str(e), "ValueError") from None


def _np_permutation(x: Any) -> Any:
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        size_check((int(x),), "the array numpy.random.permutation would make")
        return _np_state().permutation(int(x))
    if isinstance(x, np.ndarray):
        return _np_state().permutation(x)
    if isinstance(x, list):
        size_check((len(x),), "the array numpy.random.permutation would make")
        from .arrays import to_array

        return _np_state().permutation(to_array(x))
    raise _error(f"numpy.random.permutation takes an int or an array, not {typename(x)}")


def _np_shuffle(x: Any) -> None:
    if isinstance(x, np.ndarray) and x.flags.writeable and x.ndim > 0:
        _np_state().shuffle(x)
        return
    if isinstance(x, list):
        _np_state().shuffle(x)
        return
    raise GradcliError(
        f"numpy.random.shuffle of a {typename(x)} is not supported by gradcli",
        hint="shuffle a NumPy array or a list",
    )


def _np_choice(a: Any, size: Any = None, replace: bool = True, p: Any = None) -> Any:
    if isinstance(a, (int, np.integer)) and not isinstance(a, bool):
        size_check((int(a),), "the population of numpy.random.choice")
        pool: Any = int(a)
    elif isinstance(a, (list, tuple, np.ndarray)):
        from .arrays import to_array

        pool = to_array(list(a) if isinstance(a, tuple) else a)
    elif isinstance(a, range):  # `np.random.choice(range(N), 80)`: NumPy's array of the range
        size_check((len(a),), "the population of numpy.random.choice")
        pool = np.arange(a.start, a.stop, a.step, dtype=np.int64)
    else:
        raise _error(f"numpy.random.choice: a must be an int or an array, not {typename(a)}")
    probs = None
    if p is not None:
        from .arrays import to_array

        probs = to_array(p)
    try:
        return _np_state().choice(pool, size=_size(size, "choice"), replace=bool(replace), p=probs)
    except ValueError as e:
        raise _error(str(e), "ValueError") from None


class RandomState:
    """`np.random.RandomState(seed)`: NumPy's legacy generator of its own, apart from the global
    one (`np.random.seed`): its draws are NumPy's for that seed, with the module functions'
    checks (each method draws from this state)."""

    PROGRAM_ATTRIBUTES = (
        "seed",
        "rand",
        "randn",
        "random",
        "random_sample",
        "standard_normal",
        "normal",
        "uniform",
        "exponential",
        "randint",
        "bytes",
        "permutation",
        "shuffle",
        "choice",
        *DISTRIBUTIONS,
        *VECTOR_DISTRIBUTIONS,
    )

    def __init__(self, seed: Any = None) -> None:
        self.state = np.random.RandomState(self._seed_value(seed))

    @staticmethod
    def _seed_value(seed: Any) -> int:
        if seed is None:  # NumPy's is from the OS: gradcli's runs are repeatable (--seed)
            from ..core.tensor import Settings

            return Settings.seed % 2**32
        value = _int(seed, "seed", "numpy.random.RandomState")
        if not 0 <= value < 2**32:
            raise _error("Seed must be between 0 and 2**32 - 1", "ValueError")
        return value

    def _on_mine(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        # The module's function, drawing from this state instead of the global one.
        saved = _NP[0]
        _NP[0] = self.state
        try:
            return fn(*args, **kwargs)
        finally:
            _NP[0] = saved

    def seed(self, seed: Any = None) -> None:
        self.state = np.random.RandomState(self._seed_value(seed))

    def __repr__(self) -> str:
        return f"RandomState(MT19937) at {id(self):#X}"


def _state_method(name: str) -> Callable[..., Any]:
    def method(self: RandomState, *args: Any, **kwargs: Any) -> Any:
        return self._on_mine(NUMPY_RANDOM[name], *args, **kwargs)

    method.__name__ = name
    return method


NUMPY_RANDOM: dict[str, Callable[..., Any]] = {
    "seed": _np_seed,
    "rand": _np_rand,
    "randn": _np_randn,
    "random": _with_size("random_sample", (), ()),
    "random_sample": _with_size("random_sample", (), ()),
    "standard_normal": _with_size("standard_normal", (), ()),
    "normal": _with_size("normal", ("loc", "scale"), (0.0, 1.0)),
    "uniform": _with_size("uniform", ("low", "high"), (0.0, 1.0)),
    "exponential": _with_size("exponential", ("scale",), (1.0,)),
    "randint": _np_randint,
    "permutation": _np_permutation,
    "shuffle": _np_shuffle,
    "choice": _np_choice,
    "bytes": lambda length: _np_bytes(length),
    # (the legacy module's other names of random_sample)
    "ranf": _with_size("random_sample", (), ()),
    "sample": _with_size("random_sample", (), ()),
    **{name: _with_size(name, *spec) for name, spec in DISTRIBUTIONS.items()},
    **{name: _vector_draw(name) for name in VECTOR_DISTRIBUTIONS},
}


def _dtype_arg(dtype: Any, kinds: str, fn: str) -> np.dtype | None:
    """A NumPy dtype given to a draw (`np.float32`, `"float32"`, `float`), of `kinds`."""
    if dtype is None:
        return None
    v = getattr(dtype, "np", dtype)  # (np.float32 as the program holds it)
    python = {"int": np.int64, "float": np.float64, "bool": np.bool_}
    if type(v).__name__ == "PyType" and getattr(v, "name", None) in python:
        v = python[v.name]  # (the program's int, float, bool)
    elif v in (int, float, bool):
        v = python[v.__name__]
    try:
        dt = np.dtype(v) if isinstance(v, (np.dtype, str, type)) else None
    except TypeError:
        dt = None
    if dt is None:
        raise _error(f"{fn}: unsupported dtype {dtype!r}", "TypeError")
    if dt.kind not in kinds or dt == np.float16:
        raise _error(f"Unsupported dtype {dt!r} for {fn.rpartition('.')[2]}", "TypeError")
    return dt


def _entropy(seed: Any, fn: str) -> int:
    """A seed of NumPy's new generators: a non-negative integer (none: gradcli's run seed,
    where NumPy's is from the OS: gradcli's runs are repeatable)."""
    if seed is None:
        from ..core.tensor import Settings

        seed = Settings.seed
    value = _int(seed, "seed", fn)
    if value < 0:
        raise _error("expected non-negative integer", "ValueError")
    return value


class SeedSequence:
    """`np.random.SeedSequence(seed)`: NumPy's seed mixer, given to default_rng or a bit
    generator; `.spawn(n)` its independent children."""

    PROGRAM_ATTRIBUTES = ("entropy", "spawn", "n_children_spawned")

    def __init__(self, entropy: Any = None) -> None:
        self.np = np.random.SeedSequence(_entropy(entropy, "numpy.random.SeedSequence"))

    @property
    def entropy(self) -> int:
        return self.np.entropy

    @property
    def n_children_spawned(self) -> int:
        return self.np.n_children_spawned

    def spawn(self, n_children: Any) -> list:
        n = _int(n_children, "n_children", "SeedSequence.spawn")
        limits.LIST_ITEMS.check(max(n, 0), "the seed sequences spawned")
        out = []
        for child in self.np.spawn(max(n, 0)):
            made = SeedSequence.__new__(SeedSequence)
            made.np = child
            out.append(made)
        return out

    def __repr__(self) -> str:
        return f"SeedSequence(\n    entropy={self.np.entropy!r},\n)"


class BitGenerator:
    """`np.random.PCG64(seed)` (and MT19937, Philox, SFC64, PCG64DXSM): NumPy's bit generator
    of that seed (an integer or a SeedSequence), for `np.random.Generator(...)`."""

    PROGRAM_ATTRIBUTES = ("seed_seq",)

    def __init__(self, kind: str, seed: Any = None) -> None:
        self.kind = kind
        if isinstance(seed, SeedSequence):
            self.np = getattr(np.random, kind)(seed.np)
        else:
            self.np = getattr(np.random, kind)(_entropy(seed, f"numpy.random.{kind}"))

    @property
    def seed_seq(self) -> SeedSequence:
        made = SeedSequence.__new__(SeedSequence)
        made.np = self.np.seed_seq
        return made

    def program_typename(self) -> str:
        return self.kind

    def __repr__(self) -> str:
        return f"<numpy.random._{self.kind.lower()}.{self.kind} object at {id(self):#x}>"


def _bit_generator(kind: str) -> Callable[..., BitGenerator]:
    def make(seed: Any = None) -> BitGenerator:
        return BitGenerator(kind, seed)

    make.__name__ = kind
    return make


class Generator:
    """`np.random.default_rng(seed)`: NumPy's Generator (PCG64) of that seed, its draws NumPy's;
    sizes are checked before drawing and parameters must be numbers."""

    PROGRAM_ATTRIBUTES = (
        "random",
        "standard_normal",
        "normal",
        "uniform",
        "exponential",
        "integers",
        "choice",
        "permutation",
        "permuted",
        "shuffle",
        "bytes",
        "spawn",
        *DISTRIBUTIONS,
        *VECTOR_DISTRIBUTIONS,
    )

    def __init__(self, seed: Any = None) -> None:
        if isinstance(seed, Generator):  # default_rng(rng): the same generator's state
            self.gen = seed.gen
            return
        if isinstance(seed, (SeedSequence, BitGenerator)):
            self.gen = np.random.default_rng(seed.np)
            return
        self.gen = np.random.default_rng(_entropy(seed, "numpy.random.default_rng"))

    def spawn(self, n_children: Any) -> list:
        """`rng.spawn(n)`: n independent child generators (NumPy's)."""
        n = _int(n_children, "n_children", "Generator.spawn")
        limits.LIST_ITEMS.check(max(n, 0), "the generators spawned")
        try:
            children = self.gen.spawn(n)
        except (TypeError, ValueError) as e:
            raise _error(str(e), type(e).__name__) from None
        out = []
        for child in children:
            made = Generator.__new__(Generator)
            made.gen = child
            out.append(made)
        return out

    @classmethod
    def of_bits(cls, bit_generator: Any) -> Generator:
        """`np.random.Generator(np.random.PCG64(seed))`: a generator of that bit generator."""
        if not isinstance(bit_generator, BitGenerator):
            raise _error(
                f"'{typename(bit_generator)}' object has no attribute 'capsule'", "AttributeError"
            )
        made = cls.__new__(cls)
        made.gen = np.random.Generator(bit_generator.np)
        return made

    def _draw(self, name: str, params: dict[str, Any], size: Any) -> Any:
        shape = _size(size, name)
        numbers = _parameters(params, shape, f"Generator.{name}")
        try:
            return getattr(self.gen, name)(**numbers, size=shape)
        except ValueError as e:
            raise _error(str(e), "ValueError") from None

    def random(self, size: Any = None, dtype: Any = None, out: Any = None) -> Any:
        return self._typed("random", size, dtype, out)

    def standard_normal(self, size: Any = None, dtype: Any = None, out: Any = None) -> Any:
        return self._typed("standard_normal", size, dtype, out)

    def _typed(self, name: str, size: Any, dtype: Any, out: Any) -> Any:
        """`rng.random(3, dtype=np.float32)`: NumPy's float32 stream (its own draws, not the
        float64 ones rounded)."""
        if out is not None:
            raise GradcliError(f"Generator.{name}(out=...) is not supported by gradcli")
        dt = _dtype_arg(dtype, "f", f"Generator.{name}")
        if dt is None or dt == np.float64:
            return self._draw(name, {}, size)
        shape = _size(size, name)
        return getattr(self.gen, name)(size=shape, dtype=dt)

    def permuted(self, x: Any, axis: Any = None, out: Any = None) -> Any:
        """`rng.permuted(a, axis=1)`: each slice along the axis shuffled on its own (NumPy's
        draws; a copy)."""
        from .arrays import to_array

        if out is not None:
            raise GradcliError("Generator.permuted(out=...) is not supported by gradcli")
        if isinstance(x, Tensor):
            raise GradcliError(
                "Generator.permuted of a tensor is not supported by gradcli",
                hint="permute its NumPy values: rng.permuted(x.numpy())",
            )
        arr = x if isinstance(x, np.ndarray) else to_array(list(x) if isinstance(x, tuple) else x)
        size_check(arr.shape, "the array Generator.permuted would make")
        ax = None if axis is None else _int(axis, "axis", "Generator.permuted")
        try:
            return self.gen.permuted(arr, axis=ax)
        except (ValueError, np.exceptions.AxisError) as e:
            raise _error(str(e), type(e).__name__) from None

    def bytes(self, length: Any) -> bytes:
        n = _int(length, "length", "Generator.bytes")
        limits.STRING_CHARS.check(max(n, 0), "the length of the bytes")
        try:
            return self.gen.bytes(n)
        except ValueError as e:
            raise _error(str(e), "ValueError") from None

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        return self._draw("normal", {"loc": loc, "scale": scale}, size)

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None) -> Any:
        return self._draw("uniform", {"low": low, "high": high}, size)

    def exponential(self, scale: Any = 1.0, size: Any = None) -> Any:
        return self._draw("exponential", {"scale": scale}, size)

    def integers(
        self,
        low: Any,
        high: Any = None,
        size: Any = None,
        dtype: Any = None,
        endpoint: Any = False,
    ) -> Any:
        lo = _int(low, "low", "Generator.integers")
        hi = None if high is None else _int(high, "high", "Generator.integers")
        dt = _dtype_arg(dtype, "iub", "Generator.integers") or np.dtype(np.int64)
        try:
            return self.gen.integers(
                lo, hi, size=_size(size, "integers"), dtype=dt, endpoint=bool(endpoint)
            )
        except ValueError as e:
            raise _error(str(e), "ValueError") from None

    def choice(self, a: Any, size: Any = None, replace: Any = True, p: Any = None) -> Any:
        saved = _NP[0]
        _NP[0] = self.gen  # type: ignore[assignment]  # the same checks, this generator's draws
        try:
            return _np_choice(a, size, replace, p)
        finally:
            _NP[0] = saved

    def permutation(self, x: Any) -> Any:
        saved = _NP[0]
        _NP[0] = self.gen  # type: ignore[assignment]
        try:
            return _np_permutation(x)
        finally:
            _NP[0] = saved

    def shuffle(self, x: Any) -> None:
        saved = _NP[0]
        _NP[0] = self.gen  # type: ignore[assignment]
        try:
            _np_shuffle(x)
        finally:
            _NP[0] = saved

    def __repr__(self) -> str:
        return f"Generator(PCG64) at {id(self):#X}"


for _name in RandomState.PROGRAM_ATTRIBUTES:
    if _name != "seed":
        setattr(RandomState, _name, _state_method(_name))


def _generator_method(
    name: str, params: tuple[str, ...], defaults: tuple, draw: Callable[..., Any] | None = None
) -> Callable[..., Any]:
    def method(self: Generator, *args: Any, **kwargs: Any) -> Any:
        saved = _NP[0]
        _NP[0] = self.gen  # type: ignore[assignment]  # the module's checks, this generator's draws
        try:
            return (draw or _with_size(name, params, defaults))(*args, **kwargs)
        finally:
            _NP[0] = saved

    method.__name__ = name
    return method


for _name, _spec in DISTRIBUTIONS.items():
    setattr(Generator, _name, _generator_method(_name, *_spec))
for _name in VECTOR_DISTRIBUTIONS:
    setattr(Generator, _name, _generator_method(_name, (), (), _vector_draw(_name)))
NUMPY_RANDOM["RandomState"] = RandomState


def _default_rng(seed: Any = None) -> Generator:
    """`np.random.default_rng(seed)`; of a Generator, that generator itself (as NumPy)."""
    return seed if isinstance(seed, Generator) else Generator(seed)


NUMPY_RANDOM["default_rng"] = _default_rng
NUMPY_RANDOM["Generator"] = Generator.of_bits


def _get_state(legacy: Any = True) -> Any:
    """`np.random.get_state()`: the global generator's MT19937 state, NumPy's tuple."""
    kind, key, pos, has_gauss, cached = _np_state().get_state(legacy=True)
    return (kind, key, int(pos), int(has_gauss), float(cached))


def _set_state(state: Any) -> None:
    """`np.random.set_state(state)`: a state get_state gave (its parts checked first)."""
    if not isinstance(state, tuple) or len(state) not in (3, 5) or state[0] != "MT19937":
        raise _error("set_state can only be used with legacy MT19937 state instances.")
    key = state[1]
    if not isinstance(key, np.ndarray) or key.shape != (624,) or key.dtype.kind not in "iu":
        raise _error("state must be 624 elements", "ValueError")
    rest = [_int(v, "state", "numpy.random.set_state") for v in state[2:4]]
    cached = _number(state[4], "state", "numpy.random.set_state") if len(state) == 5 else 0.0
    try:
        _np_state().set_state(("MT19937", key.astype(np.uint32), *rest, cached)[: len(state)])
    except (TypeError, ValueError) as e:
        raise _error(str(e), type(e).__name__) from None


NUMPY_RANDOM["get_state"] = _get_state
NUMPY_RANDOM["set_state"] = _set_state
NUMPY_RANDOM["SeedSequence"] = SeedSequence
for _kind in ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64"):
    NUMPY_RANDOM[_kind] = _bit_generator(_kind)


def namespaces(namespace: Callable[[str, dict], Any]) -> tuple[Any, Any]:
    """The `random` module and `numpy.random`, as the interpreter's namespaces."""
    py = namespace("random", {k: Builtin(f"random.{k}", f) for k, f in PYTHON_RANDOM.items()})
    npr = namespace(
        "numpy.random", {k: Builtin(f"numpy.random.{k}", f) for k, f in NUMPY_RANDOM.items()}
    )
    from .values import PyType

    # (a class as programs use it: `np.random.Generator(np.random.PCG64(1))`, isinstance)
    npr.members["Generator"] = PyType(
        "Generator", (Generator,), Generator.of_bits, shown="numpy.random._generator.Generator"
    )
    return py, npr
