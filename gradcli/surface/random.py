"""PyTorch's CPU random numbers, reproduced on NumPy.

``torch.manual_seed(0); torch.randn(3)`` gives the same numbers here as in PyTorch 2.13 (CPU),
without PyTorch: this module re-implements PyTorch's CPU generator (a 32-bit Mersenne Twister
seeded like ``std::mt19937``) and the samplers built on it, after the algorithms of ATen's CPU
distribution kernels. It imports only NumPy, the standard library and core's fma64.

What is reproduced bit for bit
------------------------------
Checked against recorded PyTorch 2.13 outputs (seeds 0, 1, 42, 1234, 2**31 - 1, 2**32 + 5,
2**63 - 1 and -7; sizes 0, 1, 7, 15, 16, 17, 100, 1000 and 10**5; float32 and float64,
float16/bfloat16 where PyTorch samples them, and the integer dtypes where they apply) and live
against PyTorch when it is installed:

* the generator: ``manual_seed`` (every seed PyTorch accepts: negative ones wrap modulo 2**64,
  those >= 2**32 keep their value), ``initial_seed``, ``get_state``/``set_state`` in PyTorch's
  5056-byte layout (equal to ``torch.get_rng_state()``, round trips both ways), including the
  cached second Box-Muller sample that makes ``randn(3)`` affect the next ``randn``;
* ``rand``/``uniform_``, ``randn``/``normal_`` and every ``torch.normal`` overload, below and
  at/above the 16-element vectorised path, contiguous or strided;
* ``randint``/``random_`` (every overload), ``randperm``, ``exponential_``, ``geometric_``,
  ``log_normal_``, ``cauchy_``, ``poisson``, ``_standard_gamma`` (and ``_sample_dirichlet``'s
  gammas), ``bernoulli`` and ``bernoulli_`` (float or tensor
  p), ``multinomial`` (with and without replacement), the dropout mask and its scale (p = 0 and
  p = 1 included), feature (channel) dropout's and alpha dropout's noise;
* the layout of ``empty_like`` (``dense_strides``): ``rand_like`` of a transposed tensor is
  filled in its memory order, as are dropout's mask and multinomial's exponentials;
* ``nn.init``: ``uniform_``, ``normal_``, ``constant_``, ``xavier_*``, ``kaiming_*``,
  ``trunc_normal_``, ``sparse_``, and the default initialisation of ``nn.Linear``,
  ``nn.Bilinear``, ``nn.Conv1d/2d/3d`` (and transposed), ``nn.Embedding``, ``nn.LayerNorm``,
  ``nn.RNN``, ``nn.LSTM``, ``nn.GRU`` and their cells.

Not bit for bit, and why
------------------------
* ``orthogonal_``: its normal matrix is PyTorch's to the bit, but Q comes from a QR
  decomposition, which PyTorch asks of MKL's LAPACK and NumPy of OpenBLAS's; their Householder
  kernels add in other orders, and PyTorch factors a float32 matrix in float32. Q agrees within
  8 float eps of the largest entry (measured: within 5 eps for float32, 3 eps for float64).
  On the avx2 kernel family a float32 weight whose factored matrix (tall: the weight or its
  transpose) has at most 32 columns is exact (``core.mklgels``: MKL's own float32 arithmetic
  on this processor); a larger one (64 x 64) gets MKL's blocked ?orgqr, not modelled.
* ``trunc_normal_`` with a narrow interval (accepted mass <= 0.3, not the default): candidates
  are accepted by comparing ``log(u)`` with a bound; PyTorch's float32 log is SLEEF's, this one
  is correctly rounded, at most 1 ulp apart: a decision changes only for a candidate within
  1 ulp of its bound. The default (mean 0, std 1, [-2, 2]) resamples normals and is exact.

Platform notes
--------------
* float32 ``randn``/``normal_`` of 16 or more contiguous elements follow PyTorch's AVX2 kernel
  (a Cephes-style float32 log and sincos with fused multiply-adds), which x86-64 builds run on
  every CPU with AVX2 (AVX512 machines run it too). PyTorch elsewhere (ARM, x86 without AVX2)
  calls libm's float functions there, and prints other numbers.
* float64 paths need libm's ``log``, ``log1p``, ``sin`` and ``cos``, as PyTorch calls them:
  Python's ``math`` module calls the same libm. NumPy's ``sin``/``cos`` are used where a probe
  finds them equal to libm's (NumPy 2.4 calls libm for them: 10**7 angles agree). NumPy's float64
  ``log`` is its own SIMD code on AVX512F CPUs, for contiguous and strided arrays alike (0.36% of
  results on (0, 1) differ in the last bit), so the bulk ``log`` is a table-driven double-double
  log that knows its result to a few thousandths of an ulp, and asks libm wherever glibc's
  documented error (at most 0.52 ulp) leaves the rounding in doubt, and within 2**-8 of 1: about
  6.4% of Box-Muller's inputs. Those below 0.7 go to NumPy's complex log in bulk (glibc's ``clog``
  of (x, 0) below 0.5, and of (x, 2**-53) below sqrt(0.5), returns its ``log`` of x; a probe
  checks NumPy's against ``math.log`` once), the others to ``math.log`` (on Linux; elsewhere
  every element goes to ``math.log``).

Speed
-----
``benchmarks/random_normal.py``: 10**6 normals against NumPy's ``Generator.standard_normal``
(CPU time, median of 41, interleaved with the previous version, one thread, on the shared 2-core
machine under load 4-5): float32 2.6-2.8x, float64 4.6-5.1x (4.9-5.6x before this round in the
same runs). float32: about 110 passes over the lanes, most of them float32 ufuncs, in pieces
whose arrays stay in the L2 cache; the 16 fused multiply-adds whose products are not exact in
float32 cost four passes each (widen, multiply, add, round back), half of the work. float64's
floor is libm's and the generator's: ``sin`` and ``cos`` of the 500,000 angles (1.5-1.8x NumPy's
whole draw by themselves) and the 10**6 64-bit words (0.5-0.7x), 2-2.5x before the log (1.4x:
the double-double evaluation, some 45 passes in pieces that stay in the cache, and libm for the
6.4% in doubt) and the rest of Box-Muller; ``--floor`` measures these. The 3x bar of issue 11
cannot be met for float64 without a faster libm ``sin``/``cos`` (a NumPy emulation of glibc's
table-driven ``sin``/``cos`` was measured: bit-exact wherever it is sure, but its 90 passes cost
2.4x libm's own calls).

Non-contiguous targets
----------------------
PyTorch fills a strided tensor in the order of its ``TensorIterator``: dimensions sorted by
increasing stride (the smallest stride innermost). Every sampler takes the ``strides`` (in
elements) of the tensor being filled and returns the values laid out logically (C order);
``normal_`` also uses them to choose PyTorch's path (only contiguous tensors of 16 or more
elements are vectorised, others draw pairs and cache, even when large).
"""

from __future__ import annotations

import math
import sys
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.fma64 import _SPLITTER, _fma64, _two_prod, _two_sum  # noqa: F401

__all__ = [
    "DEFAULT_SEED",
    "STATE_SIZE",
    "Generator",
    "default_generator",
    "manual_seed",
    "seed",
    "initial_seed",
    "get_rng_state",
    "set_rng_state",
    "fill_order",
    "dense_strides",
    "is_contiguous",
    "rand",
    "randn",
    "uniform_",
    "normal_",
    "normal",
    "randint",
    "random_",
    "randperm",
    "exponential_",
    "geometric_",
    "log_normal_",
    "cauchy_",
    "poisson",
    "binomial",
    "bernoulli",
    "bernoulli_",
    "multinomial",
    "dropout",
    "dropout_mask",
    "feature_noise_shape",
    "alpha_dropout_noise",
    "fma",
    "calculate_gain",
    "init_uniform_",
    "init_normal_",
    "constant_",
    "xavier_uniform_",
    "xavier_normal_",
    "kaiming_uniform_",
    "kaiming_normal_",
    "trunc_normal_",
    "orthogonal_",
    "sparse_",
    "init_linear",
    "init_bilinear",
    "init_conv",
    "init_embedding",
    "init_layer_norm",
    "init_rnn",
    "init_rnn_cell",
]

# torch.Generator() without a seed starts from this one (c10's default_rng_seed_val).
DEFAULT_SEED = 67280421310721
# sizeof(CPUGeneratorImplState): the byte length of torch.get_rng_state().
STATE_SIZE = 5056

_N = 624  # Mersenne Twister state words
_U64 = np.uint64
_MASK24 = 0xFFFFFF
_MASK53 = (1 << 53) - 1
# One float32 2*pi, as PyTorch's AVX2 kernel broadcasts it: float(2.0f * pi<double>).
_TWO_PI_F32 = np.float32(2.0 * math.pi)


# ---------------------------------------------------------------------------------------------
# dtypes
# ---------------------------------------------------------------------------------------------


class _DType:
    """A dtype's facts, fixed once made (a plain class: a dataclass costs start-up time)."""

    __slots__ = ("name", "storage", "kind", "digits", "lowest", "highest")
    name: str
    storage: np.dtype  # dtype of the returned array (bfloat16 values are stored in float32)
    kind: str  # "f" floating, "i" signed, "u" unsigned, "b" bool
    digits: int  # mantissa digits for floats (std::numeric_limits<T>::digits), bits for ints
    lowest: float
    highest: float

    def __init__(
        self, name: str, storage: np.dtype, kind: str, digits: int, lowest: float, highest: float
    ) -> None:
        set_ = object.__setattr__
        for field, value in zip(self.__slots__, (name, storage, kind, digits, lowest, highest)):
            set_(self, field, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def _key(self) -> tuple:
        return tuple(getattr(self, f) for f in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return type(other) is _DType and self._key() == other._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return "_DType(" + ", ".join(f"{f}={getattr(self, f)!r}" for f in self.__slots__) + ")"


def _float_dtype(name: str, storage: Any, digits: int, highest: float) -> _DType:
    return _DType(name, np.dtype(storage), "f", digits, -highest, highest)


def _int_dtype(name: str, storage: Any) -> _DType:
    info = np.iinfo(storage)
    kind = "u" if info.min == 0 else "i"
    return _DType(name, np.dtype(storage), kind, info.bits, int(info.min), int(info.max))


# gradcli's bfloat16 arrays (`core.dtypes.BF16`, spelled here: this module imports no gradcli
# dtype code): float32 in the other byte order, holding bfloat16 values.
BF16 = np.dtype(np.float32).newbyteorder(">" if sys.byteorder == "little" else "<")
_BF16_MAX = float(np.uint32(0x7F7F0000).view(np.float32))
_DTYPES: dict[str, _DType] = {
    "float32": _float_dtype("float32", np.float32, 24, float(np.finfo(np.float32).max)),
    "float64": _float_dtype("float64", np.float64, 53, float(np.finfo(np.float64).max)),
    "float16": _float_dtype("float16", np.float16, 11, 65504.0),
    "bfloat16": _float_dtype("bfloat16", BF16, 8, _BF16_MAX),
    "int64": _int_dtype("int64", np.int64),
    "int32": _int_dtype("int32", np.int32),
    "int16": _int_dtype("int16", np.int16),
    "int8": _int_dtype("int8", np.int8),
    "uint8": _int_dtype("uint8", np.uint8),
    "uint16": _int_dtype("uint16", np.uint16),
    "uint32": _int_dtype("uint32", np.uint32),
    "uint64": _int_dtype("uint64", np.uint64),
    "bool": _DType("bool", np.dtype(np.bool_), "b", 1, 0, 1),
}
_ALIASES = {
    "float": "float32",
    "double": "float64",
    "half": "float16",
    "long": "int64",
    "int": "int32",
    "short": "int16",
}


# PyTorch's names of the dtypes in its messages: the ScalarType ('Long'), and the C++ type
# (`from is out of bounds for short int`).
SCALAR_TYPE = {
    "float32": "Float",
    "float64": "Double",
    "float16": "Half",
    "bfloat16": "BFloat16",
    "int64": "Long",
    "int32": "Int",
    "int16": "Short",
    "int8": "Char",
    "uint8": "Byte",
    "uint16": "UInt16",
    "uint32": "UInt32",
    "uint64": "UInt64",
    "bool": "Bool",
}
CPP_TYPE = {
    "float32": "float",
    "float64": "double",
    "float16": "c10::Half",
    "bfloat16": "c10::BFloat16",
    "int64": "long int",
    "int32": "int",
    "int16": "short int",
    "int8": "signed char",
    "uint8": "unsigned char",
    "bool": "bool",
}


def _dtype(dtype: Any) -> _DType:
    """'float32', 'torch.float32', torch's aliases ('double', 'long', ...) or a NumPy dtype."""
    if isinstance(dtype, _DType):
        return dtype
    if isinstance(dtype, str):
        name = dtype.removeprefix("torch.")
    else:
        name = "bfloat16" if np.dtype(dtype) == BF16 else np.dtype(dtype).name
    name = _ALIASES.get(name, name)
    if name not in _DTYPES:
        raise TypeError(f"unsupported dtype {dtype!r}")
    return _DTYPES[name]


def _to_bfloat16(x: np.ndarray) -> np.ndarray:
    """Round float32 values to bfloat16, nearest-even, as c10::BFloat16(float) does."""
    bits = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    out = rounded.astype(np.uint32).view(np.float32)
    return np.where(np.isnan(x), np.float32(np.nan), out).astype(BF16)


def _cast_float(values32: np.ndarray, dt: _DType) -> np.ndarray:
    """float32 results to the target float dtype (float16/bfloat16 round from float32)."""
    if dt.name == "bfloat16":
        return _to_bfloat16(values32)
    with np.errstate(over="ignore"):  # to inf, as C's conversion
        return values32.astype(dt.storage)


def _cast_from_double(values: np.ndarray, dt: _DType) -> np.ndarray:
    """static_cast<scalar_t>(double): half and bfloat16 convert through float, as c10 does."""
    if dt.name == "float64":
        return values
    f32 = values.astype(np.float32)
    if dt.name == "float32":
        return f32
    return _cast_float(f32, dt)


# ---------------------------------------------------------------------------------------------
# The generator
# ---------------------------------------------------------------------------------------------


_KEYS: dict[int, np.ndarray] = {}


def _seed_key(seed: int) -> np.ndarray:
    """mt19937's init_genrand on the low 32 bits of the seed (at::mt19937_engine). Remembered
    for a few seeds: every run seeds the generator, and this loop is 0.1 ms of Python."""
    x = seed & 0xFFFFFFFF
    key = _KEYS.get(x)
    if key is None:
        if len(_KEYS) > 16:
            _KEYS.clear()
        key = _KEYS[x] = _init_genrand(x)
    return key.copy()


def _init_genrand(x: int) -> np.ndarray:
    key = np.empty(_N, np.uint32)
    key[0] = x
    for j in range(1, _N):
        x = (1812433253 * (x ^ (x >> 30)) + j) & 0xFFFFFFFF
        key[j] = x
    return key


def _temper(words: np.ndarray) -> np.ndarray:
    y = words.astype(np.uint32)
    y ^= y >> np.uint32(11)
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    return y


def _check_seed(seed: Any) -> int:
    if not isinstance(seed, (int, np.integer)):
        raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
    seed = int(seed)
    # PyTorch unpacks the seed as a uint64, or as an int64 for negative values (which wrap).
    if seed < -(1 << 63) or seed >= 1 << 64:
        raise ValueError("Overflow when unpacking long long")
    return seed % (1 << 64)


class Generator:
    """torch.Generator on the CPU: a Mersenne Twister, plus the cached Box-Muller samples.

    The raw 32-bit stream comes from NumPy's MT19937, which runs the same recurrence as
    at::mt19937 (NumPy's legacy seeding is init_genrand too; the key is built here so that the
    whole 64-bit seed is kept as PyTorch keeps it).
    """

    def __init__(self, seed: int = DEFAULT_SEED, *, fallback_seed: int = 0) -> None:
        # The seed `seed()` uses: PyTorch's is nondeterministic, gradcli's comes from its caller.
        self.fallback_seed = fallback_seed
        self._mt: Any = None
        self._npgen: Any = None  # a numpy Generator on _mt, for its uint32 draws
        self._nplegacy: Any = None  # a numpy RandomState on _mt, for its masked draws
        self.manual_seed(seed)

    # -- seeding ---------------------------------------------------------------------------

    def manual_seed(self, seed: int) -> Generator:
        """Seed as torch.Generator.manual_seed: a uint64, negative seeds wrap modulo 2**64."""
        value = _check_seed(seed)
        self._seed = value
        self._set_key(_seed_key(value), pos=_N)
        # at::mt19937 right after seeding: left_ = 1, next_ = 0 (the next call twists).
        self._reported = (1, 0)
        self._prefix = np.empty(0, np.uint32)
        self._next_double: float | None = None
        self._next_float: float | None = None
        return self

    def seed(self) -> int:
        """torch.Generator.seed(): reseed nondeterministically; here with `fallback_seed`."""
        self.manual_seed(self.fallback_seed)
        return self._seed

    def initial_seed(self) -> int:
        return self._seed

    def clone(self) -> Generator:
        """An independent generator in the same state (torch's Generator.clone_state)."""
        other = Generator.__new__(Generator)
        other.fallback_seed = self.fallback_seed
        other._mt = None
        other._npgen = None
        other._nplegacy = None
        other.set_state(self.get_state())
        return other

    # -- state -----------------------------------------------------------------------------

    @property
    def _bitgen(self) -> Any:
        # Made at the first draw: numpy.random's import is a tenth of a run's start-up, and
        # every run seeds the default generator, most never draw.
        if self._mt is None:
            self._mt = np.random.MT19937(0)
            key, pos = self._pending
            self._mt.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": pos}}
        return self._mt

    def _set_key(self, key: np.ndarray, pos: int) -> None:
        key = key.astype(np.uint32)
        if self._mt is None:
            self._pending = (key, pos)
            return
        self._mt.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": pos}}

    def _left_next(self) -> tuple[int, int]:
        if self._reported is not None:
            return self._reported
        pos = int(self._bitgen.state["state"]["pos"])
        if self._prefix.size:
            raise AssertionError("unreachable: a prefix always has a reported position")
        return _N + 1 - pos, pos

    def get_state(self) -> np.ndarray:
        """The 5056 bytes of torch.get_rng_state() (CPUGeneratorImplState, little-endian)."""
        left, nxt = self._left_next()
        key = np.asarray(self._bitgen.state["state"]["key"], np.uint32)
        buf = np.zeros(STATE_SIZE, np.uint8)
        head = np.zeros(
            1, dtype=[("seed", "<u8"), ("left", "<i4"), ("seeded", "<i4"), ("next", "<u8")]
        )
        head[0] = (self._seed, left, 1, nxt)
        buf[0:24] = head.view(np.uint8)
        buf[24:5016] = key.astype("<u8").view(np.uint8)
        if self._next_double is not None:
            buf[5024:5032] = np.array([self._next_double], "<f8").view(np.uint8)
            buf[5040:5044] = np.array([1], "<i4").view(np.uint8)
        if self._next_float is not None:
            buf[5048:5052] = np.array([self._next_float], "<f4").view(np.uint8)
            buf[5052] = 1
        return buf

    def set_state(self, state: Any) -> Generator:
        """torch.Generator.set_state: accepts get_state()'s bytes (or any uint8 sequence)."""
        raw = np.asarray(state)
        if raw.dtype != np.uint8:
            raise TypeError(f"RNG state must be a torch.ByteTensor, got {raw.dtype}")
        raw = np.ascontiguousarray(raw.reshape(-1))
        if raw.size != STATE_SIZE:
            raise RuntimeError(
                f"Expected a CPUGeneratorImplState of size {STATE_SIZE} but found the input RNG "
                f"state size to be {raw.size}"
            )
        seed = int(raw[0:8].view("<u8")[0])
        left = int(raw[8:12].view("<i4")[0])
        seeded = int(raw[12:16].view("<i4")[0])
        nxt = int(raw[16:24].view("<u8")[0]) & 0xFFFFFFFF  # at::mt19937 keeps a uint32 next_
        key = raw[24:5016].view("<u8").astype(np.uint32)  # the legacy uint64 words, truncated
        if not (seeded != 0 and 0 < left <= _N and nxt <= _N):
            raise RuntimeError("Invalid mt19937 state")
        self._seed = seed
        self._prefix = np.empty(0, np.uint32)
        if left == 1:
            self._set_key(key, pos=_N)  # the next draw twists, wherever next_ points
        elif left + nxt == _N + 1:
            self._set_key(key, pos=nxt)
        else:
            # A state PyTorch never produces itself, but accepts: (left - 1) words from next_
            # on, then a twist. Beyond the array PyTorch would read out of bounds.
            if nxt + left - 1 > _N:
                raise RuntimeError("Invalid mt19937 state (next_ + left_ overruns the array)")
            self._prefix = _temper(key[nxt : nxt + left - 1])
            self._set_key(key, pos=_N)
        self._reported = (left, nxt)
        valid_double = int(raw[5040:5044].view("<i4")[0]) != 0
        self._next_double = float(raw[5024:5032].view("<f8")[0]) if valid_double else None
        valid_float = raw[5052] != 0
        self._next_float = float(raw[5048:5052].view("<f4")[0]) if valid_float else None
        return self

    # -- raw draws -------------------------------------------------------------------------

    def random32(self, n: int) -> np.ndarray:
        """The next n outputs of the engine (CPUGeneratorImpl::random), 32 bits in uint64."""
        return self.words32(n).astype(_U64)

    def words32(self, n: int) -> np.ndarray:
        """The next n outputs of the engine as uint32 (half the memory of random32's)."""
        if n <= 0:
            return np.empty(0, np.uint32)
        parts = []
        if self._prefix.size:
            k = min(n, self._prefix.size)
            parts.append(self._prefix[:k])
            self._prefix = self._prefix[k:]
            left, nxt = self._reported  # type: ignore[misc]
            self._reported = (left - k, nxt + k)
            n -= k
            if self._prefix.size:
                return parts[0]
        if n:
            # NumPy's integers over the whole uint32 range return the bit generator's 32-bit
            # outputs one for one (no rejection), written as uint32: faster than random_raw,
            # which writes uint64. The same stream: the Generator wraps the same MT19937.
            parts.append(self._words(n))
            self._reported = None
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    def _words(self, n: int) -> np.ndarray:
        bitgen = self._bitgen
        if self._npgen is None or self._npgen.bit_generator is not bitgen:
            self._npgen = np.random.Generator(bitgen)
        return self._npgen.integers(0, 1 << 32, size=n, dtype=np.uint32)

    def low53(self, n: int) -> np.ndarray:
        """random64(n) & (2**53 - 1) as int64: the integers k of the float64 uniforms k * 2**-53
        (uniform_real_distribution<double>)."""
        if n > 0 and not self._prefix.size:
            # RandomState.randint masks NumPy's 64-bit outputs (random64's) and rejects values
            # above the range: with 2**53 as the bound, none; one pass, no masking here.
            bitgen = self._bitgen
            if self._nplegacy is None or getattr(self, "_nplegacy_of", None) is not bitgen:
                self._nplegacy = np.random.RandomState(bitgen)
                self._nplegacy_of = bitgen
            self._reported = None
            return self._nplegacy.randint(0, 1 << 53, size=n, dtype=np.int64)
        k = self.random64(n).view(np.int64)
        k &= _MASK53
        return k

    def random64(self, n: int) -> np.ndarray:
        """n values of CPUGeneratorImpl::random64: (first word << 32) | second word."""
        if n > 0 and not self._prefix.size:
            # NumPy's MT19937 makes its 64-bit outputs the same way (the first 32-bit word the
            # high half), and integers over the whole uint64 range returns them one for one:
            # no joining of words here.
            bitgen = self._bitgen
            if self._npgen is None or self._npgen.bit_generator is not bitgen:
                self._npgen = np.random.Generator(bitgen)
            self._reported = None
            return self._npgen.integers(0, 1 << 64, size=n, dtype=_U64)
        w = self.words32(2 * n)
        if sys.byteorder != "little":
            w64 = w.astype(_U64)
            return (w64[0::2] << _U64(32)) | w64[1::2]
        return _join_words(w, 0xFFFFFFFF)


def _join_words(w: np.ndarray, high_mask: int) -> np.ndarray:
    """(w[0::2] & high_mask) << 32 | w[1::2] as uint64, for a little-endian machine (a uint64
    holds its low half first): two strided copies into the halves."""
    out = np.empty(w.size // 2, _U64)
    halves = out.view(np.uint32)
    np.bitwise_and(w[0::2], np.uint32(high_mask), out=halves[1::2])
    halves[0::2] = w[1::2]
    return out


_default: Generator | None = None

# Called before every draw when set: how `vmap(..., randomness="error")` refuses random
# operations inside the mapped function, as PyTorch does.
DRAW_CHECK: Any = None


def default_generator() -> Generator:
    """The module's default generator. PyTorch seeds its own nondeterministically; gradcli starts
    from seed 0 (its --seed default) so a program without manual_seed is reproducible."""
    global _default
    if _default is None:
        _default = Generator(0)
    return _default


def _gen(generator: Generator | None) -> Generator:
    if DRAW_CHECK is not None:
        DRAW_CHECK()
    return default_generator() if generator is None else generator


def manual_seed(seed: int) -> Generator:
    """torch.manual_seed: int(seed) seeds the default generator, which is returned."""
    return default_generator().manual_seed(int(seed))


def seed() -> int:
    """torch.seed(): reseeds the default generator (with its fallback seed) and returns it."""
    return default_generator().seed()


def initial_seed() -> int:
    return default_generator().initial_seed()


def get_rng_state() -> np.ndarray:
    return default_generator().get_state()


def set_rng_state(state: Any) -> None:
    default_generator().set_state(state)


# ---------------------------------------------------------------------------------------------
# Layout: in what order PyTorch fills a strided tensor
# ---------------------------------------------------------------------------------------------


class ShapeError(RuntimeError):
    """A size no tensor can have: the caller's input, never a fault of the module (the
    surface turns it into the program's error)."""


def _shape(size: Any) -> tuple[int, ...]:
    if isinstance(size, (int, np.integer)):
        return (int(size),)
    shape = tuple(int(s) for s in size)
    if any(s < 0 for s in shape):
        # The program's error wherever the shape came from (a layer's size as well as a
        # draw's), in PyTorch's words.
        n = next(s for s in shape if s < 0)
        raise ShapeError(f"Trying to create tensor with negative dimension {n}: {list(shape)}")
    return shape


def is_contiguous(shape: Sequence[int], strides: Sequence[int] | None) -> bool:
    """Tensor.is_contiguous(): dimensions of size 1 do not count, nor strides of empty tensors."""
    if strides is None:
        return True
    shape = _shape(shape)
    if len(strides) != len(shape):
        raise ValueError("strides must have one entry per dimension")
    if math.prod(shape) == 0:
        return True
    expected = 1
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size == 1:
            continue
        if stride != expected:
            return False
        expected *= size
    return True


def fill_order(shape: Sequence[int], strides: Sequence[int] | None = None) -> np.ndarray:
    """C-order flat indices of the elements, in the order PyTorch draws their values.

    A nullary TensorIterator sorts the dimensions by increasing stride (the innermost loop runs
    over the smallest stride; equal strides put the smaller size inside, then the later
    dimension), so a transposed tensor is filled in memory order.
    """
    shape = _shape(shape)
    n = math.prod(shape)
    if strides is None or is_contiguous(shape, strides):
        return np.arange(n, dtype=np.int64)
    strides = [int(s) for s in strides]
    if len(strides) != len(shape):
        raise ValueError("strides must have one entry per dimension")
    if any(s < 0 for s in strides):
        raise ValueError("negative strides do not exist in PyTorch")
    # Innermost first, from the last dimension, then an insertion sort as TensorIterator does.
    perm = list(range(len(shape)))[::-1]

    def should_swap(d0: int, d1: int) -> bool:
        s0, s1 = strides[d0], strides[d1]
        if s0 == 0 or s1 == 0:
            return False
        if s0 != s1:
            return s0 > s1
        return shape[d0] > shape[d1]

    for i in range(1, len(perm)):
        for j in range(i, 0, -1):
            if should_swap(perm[j - 1], perm[j]):
                perm[j - 1], perm[j] = perm[j], perm[j - 1]
            else:
                break
    outer_to_inner = perm[::-1]
    index = np.arange(n, dtype=np.int64).reshape(shape)
    return np.transpose(index, outer_to_inner).reshape(-1)


def dense_strides(shape: Sequence[int], strides: Sequence[int] | None) -> tuple[int, ...] | None:
    """The strides torch.empty_like (preserve_format) gives a tensor of this layout
    (`core.layout.like_strides`: a dense tensor's own, else closed up in the order of its
    strides), or None when that is the contiguous layout. Draws fill such a tensor in that
    order (`rand_like(x.t())`, dropout's noise, multinomial's exponentials)."""
    if strides is None:
        return None
    from ..core.layout import like_strides

    shape = _shape(shape)
    out = like_strides(shape, strides)
    if is_contiguous(shape, out):
        return None
    return out


def _place(values: np.ndarray, shape: tuple[int, ...], strides: Sequence[int] | None) -> np.ndarray:
    """Lay values drawn in PyTorch's fill order out as a C-order array of `shape`."""
    if strides is None or is_contiguous(shape, strides):
        return values.reshape(shape)
    out = np.empty(values.size, values.dtype)
    out[fill_order(shape, strides)] = values
    return out.reshape(shape)


# ---------------------------------------------------------------------------------------------
# Exact arithmetic helpers: PyTorch's kernels use fused multiply-adds, NumPy has none
# ---------------------------------------------------------------------------------------------

# (the float64 ones, _two_sum, _two_prod and _fma64, live in core.fma64, where the kernels of
# the ops layer reach them too)


def _fma32(a: Any, b: Any, c: Any) -> np.ndarray:
    """Correctly rounded a*b + c in float32: the product is exact in float64, the sum is rounded
    once to float64 and once to float32, which is wrong only when the first rounding lands exactly
    on a float32 midpoint; those elements are corrected from the exact error of the sum."""
    a64 = np.asarray(a, np.float32).astype(np.float64)
    p = a64 * np.asarray(b, np.float32).astype(np.float64)
    c64 = np.asarray(c, np.float32).astype(np.float64)
    s = p + c64
    out = s.astype(np.float32)
    mid = (s.view(np.uint64) & _U64(0x1FFFFFFF)) == _U64(0x10000000)
    if np.any(mid):
        p, c64 = np.broadcast_arrays(p, c64)
        sm, pm, cm = s[mid], p[mid], c64[mid]
        bb = sm - pm
        err = (pm - (sm - bb)) + (cm - bb)
        nudged = np.where(err != 0, np.nextafter(sm, np.copysign(np.inf, err)), sm)
        out = np.array(out)
        out[mid] = nudged.astype(np.float32)
    return out


FMA_CHUNK = 1 << 18  # elements of one piece of a large fused multiply-add

# Called between the pieces of a long computation: the sandbox sets its clock check here (this
# module imports nothing of gradcli's, so it cannot reach the clock itself).
CLOCK_CHECK: Any = None


def fma(a: Any, b: Any, c: Any, dtype: Any) -> np.ndarray:
    """Correctly rounded a*b + c in float32 or float64: what a C++ kernel compiled with
    contraction computes for `c + a * b` (e.g. ATen's linspace). A large one is computed in
    pieces, the clock checked between them: the emulation makes a dozen temporaries of the
    operands' size (10**7 float64 elements: 1.2 s and half a gigabyte in one piece)."""
    one = _fma32 if np.dtype(dtype) == np.float32 else _fma64
    if max(np.size(a), np.size(b), np.size(c)) <= FMA_CHUNK:  # (the operands broadcast)
        return one(a, b, c)
    a, b, c = np.broadcast_arrays(*(np.asarray(v) for v in (a, b, c)))

    out = np.empty(a.shape, np.dtype(dtype))
    fa, fb, fc, fo = (v.reshape(-1) for v in (a, b, c, out))
    for i in range(0, fo.size, FMA_CHUNK):
        if CLOCK_CHECK is not None:
            CLOCK_CHECK()
        piece = slice(i, i + FMA_CHUNK)
        fo[piece] = one(fa[piece], fb[piece], fc[piece])
    return out


# ---------------------------------------------------------------------------------------------
# libm in bulk: PyTorch's double kernels call libm's log/log1p/sin/cos, Python's math module calls
# the same libm, NumPy may not (its SIMD log differs from glibc's in ~0.2% of the last bits)
# ---------------------------------------------------------------------------------------------


def _map_math(fn: Any, x: np.ndarray) -> np.ndarray:
    flat = np.asarray(x, np.float64).reshape(-1)
    return np.fromiter(map(fn, flat.tolist()), np.float64, flat.size).reshape(np.shape(x))


_NUMPY_TRIG_IS_LIBM: bool | None = None


def _numpy_trig_is_libm() -> bool:
    """Does np.sin/np.cos give math.sin/math.cos's bits? Probed once on a spread of angles."""
    global _NUMPY_TRIG_IS_LIBM
    if _NUMPY_TRIG_IS_LIBM is None:
        probe = np.random.MT19937(12345).random_raw(8192).astype(np.float64)
        theta = np.concatenate([probe * (2 * math.pi / 2.0**32), [0.0, math.pi, 2 * math.pi]])
        _NUMPY_TRIG_IS_LIBM = bool(
            np.array_equal(np.sin(theta), _map_math(math.sin, theta))
            and np.array_equal(np.cos(theta), _map_math(math.cos, theta))
        )
    return _NUMPY_TRIG_IS_LIBM


def _libm_sin(x: np.ndarray) -> np.ndarray:
    return np.sin(x) if _numpy_trig_is_libm() else _map_math(math.sin, x)


def _libm_cos(x: np.ndarray) -> np.ndarray:
    return np.cos(x) if _numpy_trig_is_libm() else _map_math(math.cos, x)


# glibc's log is within 0.52 ulp of the exact value (0.507 near 1; its source documents both), so
# where the exact value lies more than 0.02 ulp from a rounding midpoint, glibc returns the
# correctly rounded double. _accurate_log locates the exact value to a few thousandths of an ulp;
# where it finds the rounding in doubt (about 6% of inputs), libm is asked (math.log, or NumPy's
# complex log below 0.7). (NumPy's float64 log is its own SIMD code on AVX512F CPUs, for
# contiguous and strided arrays alike.)
_LOG_DOUBT = 0.5 - 0.03
_LOG_BITS = 10  # table of 2**10 + 1 logarithms, built on first use
_LOG_TABLE: tuple[np.ndarray, np.ndarray, np.ndarray, float, float] | None = None


def _log_table() -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
    """inv[i] ~ 1 / (1 + (i + 1/2) / 1024) with 11 significant bits (1 and 1/2 at the ends, so
    that log(x) keeps its relative accuracy next to x = 1), and -log(inv[i]) as hi + lo, hi a
    multiple of 2**-42 (so k * ln2_hi + hi is exact); likewise ln 2. From Decimal's ln."""
    global _LOG_TABLE
    if _LOG_TABLE is None:
        import decimal

        size = 1 << _LOG_BITS
        inv = np.empty(size, np.float64)
        for i in range(size):
            inv[i] = 1.0 / (1.0 + (i + 0.5) / size)
        # 11 significant bits, nearest: inv in (0.5, 1] has its leading bit at 2**-1.
        inv = np.round(inv * 2.0**11) * 2.0**-11
        inv[0], inv[-1] = 1.0, 0.5
        hi, lo = np.empty(size), np.empty(size)
        # Every Decimal operation in a 40-digit context (the default one has 28 digits).
        with decimal.localcontext(decimal.Context(prec=40)):

            def split(value: decimal.Decimal) -> tuple[float, float]:
                scaled = (value * 2**42).to_integral_value(decimal.ROUND_HALF_EVEN)
                high = float(int(scaled)) * 2.0**-42
                return high, float(value - decimal.Decimal(high))

            for i, v in enumerate(inv.tolist()):
                hi[i], lo[i] = split(-decimal.Decimal(v).ln())
            ln2_hi, ln2_lo = split(decimal.Decimal(2).ln())
        _LOG_TABLE = (inv, hi, lo, ln2_hi, ln2_lo)
    return _LOG_TABLE


_UNIT_LOG_TABLES: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
_UNIT_J0 = (1023 - 53) << _LOG_BITS  # x >> 42 of x = 2**-53: the first row of those tables


def _unit_log_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For x in [2**-53, 1] (Box-Muller's 1 - u), indexed by x's exponent and top mantissa bits
    together (x's bits >> 42, less _UNIT_J0): k ln2_hi - log(inv[i]) (exact), k ln2_lo + the
    low part (the two roundings _accurate_log makes), and inv[i]. One gather each replaces the
    exponent's extraction and the products: the same values, fewer passes."""
    global _UNIT_LOG_TABLES
    if _UNIT_LOG_TABLES is None:
        inv, t_hi, t_lo, ln2_hi, ln2_lo = _log_table()
        size = 1 << _LOG_BITS
        kf = np.repeat(np.arange(-53, 1, dtype=np.float64), size)
        i = np.tile(np.arange(size), 54)
        high = kf * ln2_hi
        high += t_hi[i]
        low = kf * ln2_lo
        low += t_lo[i]
        _UNIT_LOG_TABLES = (high, low, inv[i])
    return _UNIT_LOG_TABLES


def _accurate_log(
    x: np.ndarray, out: np.ndarray, doubt: np.ndarray, near1: bool = True, unit: bool = False
) -> None:
    """For positive normal x: out = the correctly rounded log(x), except where `doubt` is set.

    x = 2**k * m, m in [1, 2); m * inv[i] = 1 + r exactly as r1 + r2 (m split so that both
    products are exact); log(x) = k ln2 - log(inv[i]) + log1p(r), summed in double-double.
    In doubt: where the exact value lies within 0.03 ulp of a rounding midpoint, and every x
    within 2**-8 of 1 (0.8% of inputs spread evenly, 0.4% of Box-Muller's 1 - u), where log(x)
    is small and the sums below would need more care. Elsewhere |log(x)| > 2**-9 > |r1|.
    `unit`: every x is in [2**-53, 1], and the table lookups are combined (_unit_log_tables)."""
    # (Written with few arrays, reused once their values are spent: they stay in the cache.)
    bits = x.view(np.int64)
    if unit:
        high_tab, low_tab, inv_tab = _unit_log_tables()
        row = bits >> (52 - _LOG_BITS)
        row -= _UNIT_J0
        c = inv_tab[row]
        high = high_tab[row]
        low = low_tab[row]
        mbits = bits & 0x000FFFFFFFFFFFFF
    else:
        inv, t_hi, t_lo, ln2_hi, ln2_lo = _log_table()
        k = bits >> 52
        k -= 1023
        kf = k.astype(np.float64)
        mbits = bits & 0x000FFFFFFFFFFFFF
        i = np.right_shift(mbits, 52 - _LOG_BITS, out=k)
        c = inv[i]
    mbits |= 0x3FF0000000000000
    # m_hi: the top 42 bits of m, so that m_hi * c (c has 11 bits) is exact.
    m_hi = (mbits & ~((1 << 11) - 1)).view(np.float64)
    r2 = mbits.view(np.float64)  # m
    r2 -= m_hi
    r2 *= c  # exact: 11 bits times 11 bits
    r1 = np.multiply(m_hi, c, out=m_hi)
    r1 -= 1.0  # exact (Sterbenz)
    # log1p(r1) - r1 = r1**2 * (-1/2 + r1/3 - r1**2/4 + r1**3/5 - r1**4/6), |r1| <= 2**-10: the
    # next term is under 2**-72.8, 2**-11 ulp of any log(x) not in doubt (|log(x)| > 2**-9)
    tail = np.multiply(r1, -1 / 6, out=c)
    for coef in (1 / 5, -1 / 4, 1 / 3, -1 / 2):
        tail += coef
        tail *= r1
    tail *= r1
    # log1p(r1 + r2) = log1p(r1) + r2 / (1 + r1) + O(r2**2): r2 / (1 + r1) - r2 to r1**2 * r2
    cross = r1 * r2
    tail -= cross
    cross *= r1
    tail += cross
    if unit:
        a = high
    else:
        a = np.multiply(kf, ln2_hi, out=cross)
        a += t_hi[i]  # exact: multiples of 2**-42 below 2**11
    s = a + r1  # fast two-sum: |a| >= |r1| wherever x is not in doubt
    err = np.subtract(s, a, out=a)
    np.subtract(r1, err, out=err)
    if unit:
        lo = low
    else:
        lo = np.multiply(kf, ln2_lo, out=kf)
        lo += t_lo[i]
    lo += r2
    lo += tail
    lo += err
    np.add(s, lo, out=out)  # fast two-sum: |s| >= |lo|
    res = np.subtract(out, s, out=s)
    np.subtract(lo, res, out=res)
    # |res| > _LOG_DOUBT ulp exactly where res scaled by 0.5 / _LOG_DOUBT moves the rounding:
    # this measures in the ulps of the side res points to (below a power of two they halve).
    res *= 0.5 / _LOG_DOUBT
    res += out
    np.not_equal(res, out, out=doubt)
    if not near1:
        return  # the caller flags the x within 2**-8 of 1 (Box-Muller: from the integers)
    np.subtract(x, 1.0, out=res)
    np.abs(res, out=res)
    doubt |= res < 2.0**-8


_LOG_STEP = 1 << 14  # elements of one piece of a bulk log: its temporaries stay in the L2 cache


def _libm_log(x: np.ndarray) -> np.ndarray:
    """math.log elementwise (glibc's bits), mostly without calling it; log(0) is -inf."""
    x = np.asarray(x, np.float64)
    if x.size < 64 or not sys.platform.startswith("linux"):
        with np.errstate(divide="ignore"):
            return np.where(x == 0, -np.inf, _map_math(lambda v: math.log(v) if v else 0.0, x))
    flat = x.reshape(-1)
    normal = (flat >= 2.2250738585072014e-308) & (flat < np.inf)
    if normal.all():
        return _libm_log_normal(flat).reshape(x.shape)
    out = _libm_log_normal(np.where(normal, flat, 1.0))
    odd = np.flatnonzero(~normal)
    with np.errstate(divide="ignore"):
        out[odd] = _map_math(lambda v: math.log(v) if v else -math.inf, flat[odd])
    return out.reshape(x.shape)


def _libm_log_normal(x: np.ndarray) -> np.ndarray:
    """math.log of a flat array of positive normal numbers: _accurate_log piece by piece, then
    math.log once for all the elements in doubt."""
    out = np.empty(x.size, np.float64)
    doubt = np.empty(x.size, np.bool_)
    for start in range(0, x.size, _LOG_STEP):
        piece = slice(start, start + _LOG_STEP)
        _accurate_log(x[piece], out[piece], doubt[piece])
    _settle_log_doubts(x, out, doubt)
    return out


def _settle_log_doubts(x: np.ndarray, out: np.ndarray, doubt: np.ndarray) -> None:
    """out = libm's log of x wherever _accurate_log left `doubt` set (flat arrays)."""
    redo = np.flatnonzero(doubt)
    if redo.size:
        out[redo] = _log_of_doubts(x[redo])


def _log_of_doubts(xs: np.ndarray) -> np.ndarray:
    """libm's log of the positive normal xs (a flat array) that _accurate_log left in doubt."""
    below = xs < _CLOG_BELOW
    if not below.any() or not _numpy_clog_is_libm():
        return _map_math(math.log, xs)
    # Most of the doubts: glibc's complex log of (x, y) is its log of hypot(x, y) where it takes
    # neither of its log1p paths: for x < 0.5 with y = 0, and for x in [0.5, sqrt(0.5)) with
    # y = 2**-53 (not below DBL_EPSILON / 2, and x**2 + y**2 < 0.5), whose hypot is x. NumPy
    # calls it in bulk (a third of math.log's cost).
    ys = np.empty(xs.size, np.float64)
    ys[below] = _log_as_complex(xs[below])
    above = ~below
    ys[above] = _map_math(math.log, xs[above])
    return ys


_CLOG_BELOW = 0.7  # below sqrt(0.5) with room for how glibc rounds x**2 + y**2


def _log_as_complex(x: np.ndarray) -> np.ndarray:
    """glibc's log of x < _CLOG_BELOW through NumPy's complex log (see _libm_log_normal)."""
    z = np.zeros(x.size, np.complex128)
    z.real = x
    z.imag[x >= 0.5] = 2.0**-53
    np.log(z, out=z)
    return z.real.copy()


_NUMPY_CLOG_IS_LIBM: bool | None = None


def _numpy_clog_is_libm() -> bool:
    """Is _log_as_complex(x) math.log(x) for 0 < x < _CLOG_BELOW? Probed once on a spread."""
    global _NUMPY_CLOG_IS_LIBM
    if _NUMPY_CLOG_IS_LIBM is None:
        probe = np.random.MT19937(54321).random_raw(8192).astype(np.float64)
        upper = 0.5 + probe * ((_CLOG_BELOW - 0.5) * 2.0**-32)
        ends = [2.0**-53, 0.25, 0.5 - 2.0**-54, 0.5, _CLOG_BELOW - 2.0**-53]
        x = np.concatenate([(probe + 0.5) * 2.0**-33, upper, ends])
        x[:64] *= 2.0 ** -np.arange(64)  # small ones too
        with np.errstate(all="ignore"):
            got = _log_as_complex(x)
        _NUMPY_CLOG_IS_LIBM = bool(np.array_equal(got, _map_math(math.log, x)))
    return _NUMPY_CLOG_IS_LIBM


def _libm_log_unit(x: np.ndarray) -> np.ndarray:
    """math.log elementwise for x in [2**-53, 1] (Box-Muller's 1 - u): `_libm_log` without the
    checks for zeros, subnormals and infinities, which such x never are."""
    if x.size < 64 or not sys.platform.startswith("linux"):
        return _libm_log(x)
    return _libm_log_normal(x.reshape(-1)).reshape(x.shape)


def _libm_log1p(x: np.ndarray) -> np.ndarray:
    return _map_math(math.log1p, x)


# ---------------------------------------------------------------------------------------------
# Uniform numbers: at::uniform_real_distribution
# ---------------------------------------------------------------------------------------------


def _unit_f32(gen: Generator, n: int) -> np.ndarray:
    """uniform_real_distribution<float>(0, 1): 24 random bits of one 32-bit draw, times 2**-24."""
    return _unit_from_words32(gen.words32(n))


def _unit_from_words32(w: np.ndarray) -> np.ndarray:
    """_unit_f32 of words already drawn (uint32)."""
    k = np.bitwise_and(w.view(np.int32), _MASK24)  # int32 -> float converts fast, uint32 not
    out = k.astype(np.float32)
    out *= np.float32(2.0**-24)
    return out


def _unit_f64(gen: Generator, n: int) -> np.ndarray:
    """uniform_real_distribution<double>(0, 1): 53 bits of one 64-bit draw, times 2**-53."""
    return _unit_from_words64(gen.random64(n))


def _unit_from_words64(w: np.ndarray) -> np.ndarray:
    """_unit_f64 of 64-bit draws already made (uint64; they are masked, then overwritten by the
    uniforms: the result is a float64 view of w's memory)."""
    k = w.view(np.int64)  # int64 -> double converts fast, uint64 not
    k &= _MASK53
    out = w.view(np.float64)
    np.multiply(k, 2.0**-53, out=out)  # exact: k < 2**53 converts exactly, then a power of 2
    return out


def _uniform_values(gen: Generator, n: int, low: float, high: float, dt: _DType) -> np.ndarray:
    """uniform_kernel: x * (to - from) + from, fused, in float (or double for float64), cast,
    and a value that rounded up to `to` replaced by `from`."""
    if dt.name == "float64":
        x = _unit_f64(gen, n)
        span = high - low
        if span == 1.0 and low == 0.0:
            vals = x
        else:
            vals = _fma64(x, span, low)
        return np.where(vals == high, low, vals)
    lo32, hi32 = np.float32(low), np.float32(high)
    x = _unit_f32(gen, n)
    if lo32 == 0 and hi32 == 1:
        vals = x
    else:
        vals = _fma32(x, hi32 - lo32, lo32)
    out = _cast_float(vals, dt)
    to_s = _cast_float(np.array([hi32]), dt)[0]
    from_s = _cast_float(np.array([lo32]), dt)[0]
    return np.where(out == to_s, from_s, out).astype(dt.storage)


def _check_float(dt: _DType, what: str) -> None:
    if dt.kind != "f":
        raise NotImplementedError(f"\"{what}\" not implemented for '{SCALAR_TYPE[dt.name]}'")


def _complex_parts(dtype: Any) -> np.dtype | None:
    """Of a complex dtype (NumPy's, or its name), the dtype of its parts; else None."""
    if isinstance(dtype, str):
        dtype = {"complex64": np.complex64, "complex128": np.complex128}.get(
            dtype.removeprefix("torch."), None
        )
    if not isinstance(dtype, (np.dtype, type)) or dtype is None:
        return None
    try:
        dt = np.dtype(dtype)
    except TypeError:
        return None
    if dt.kind != "c":
        return None
    return np.dtype(np.float64 if dt == np.complex128 else np.float32)


def _parts_shape(size: Any) -> tuple[int, ...]:
    return (*_shape(size), 2)


def _complex_drawn(parts: np.ndarray) -> np.ndarray:
    """The complex numbers of a draw of their parts (shape + (2,), real then imaginary)."""
    dt = np.complex128 if parts.dtype == np.float64 else np.complex64
    return np.ascontiguousarray(parts).view(dt).reshape(parts.shape[:-1])


def uniform_(
    size: Any,
    a: float = 0.0,
    b: float = 1.0,
    *,
    dtype: Any = "float32",
    generator: Generator | None = None,
    strides: Sequence[int] | None = None,
) -> np.ndarray:
    """torch.empty(size, dtype=dtype).uniform_(a, b, generator=g) (laid out as `strides`)."""
    parts = _complex_parts(dtype)
    if parts is not None:  # PyTorch's draw on the real view: each part uniform in [a, b)
        return _complex_drawn(uniform_(_parts_shape(size), a, b, dtype=parts, generator=generator))
    dt = _dtype(dtype)
    _check_float(dt, "check_uniform_bounds")
    shape = _shape(size)
    a, b = float(a), float(b)
    if not (dt.lowest <= a <= dt.highest):
        raise RuntimeError(f"from is out of bounds for {CPP_TYPE[dt.name]}")
    if not (dt.lowest <= b <= dt.highest):
        raise RuntimeError(f"to is out of bounds for {CPP_TYPE[dt.name]}")
    if not a <= b:
        raise RuntimeError(
            f"uniform_ expects to return a [from, to) range, but found from={a:g} > to={b:g}"
        )
    if not (b - a) <= dt.highest:
        raise RuntimeError(
            f"uniform_ expects to-from <= std::numeric_limits<{SCALAR_TYPE[dt.name]}>::max(), "
            f"but found to={b:g} and from={a:g} which result in to-from to exceed the limit"
        )
    n = math.prod(shape)
    if n == 0:
        return np.empty(shape, dt.storage)
    vals = _uniform_values(_gen(generator), n, a, b, dt)
    return _place(vals, shape, strides)


def rand(
    *size: Any,
    dtype: Any = "float32",
    generator: Generator | None = None,
    strides: Sequence[int] | None = None,
) -> np.ndarray:
    """torch.rand(*size, dtype=..., generator=...): uniform_(0, 1) on a new tensor."""
    return uniform_(_varargs(size), 0.0, 1.0, dtype=dtype, generator=generator, strides=strides)


def _varargs(size: tuple[Any, ...]) -> tuple[int, ...]:
    if len(size) == 1 and not isinstance(size[0], (int, np.integer)):
        return _shape(size[0])
    return _shape(size)


# ---------------------------------------------------------------------------------------------
# Normal numbers
# ---------------------------------------------------------------------------------------------

# Constants of the Cephes-style float32 log and sincos (ATen's avx_mathfun.h, after Julien
# Pommier's sse_mathfun), as float32.
_F = np.float32
_LOG_P = [
    _F(c)
    for c in (
        7.0376836292e-2,
        -1.1514610310e-1,
        1.1676998740e-1,
        -1.2420140846e-1,
        1.4249322787e-1,
        -1.6668057665e-1,
        2.0000714765e-1,
        -2.4999993993e-1,
        3.3333331174e-1,
    )
]
_LOG_Q1, _LOG_Q2 = _F(-2.12194440e-4), _F(0.693359375)
_SQRTHF = _F(0.707106781186547524)
_DP = [_F(-0.78515625), _F(-2.4187564849853515625e-4), _F(-3.77489497744594108e-8)]
_SIN_P = [_F(-1.9515295891e-4), _F(8.3321608736e-3), _F(-1.6666654611e-1)]
_COS_P = [_F(2.443315711809948e-005), _F(-1.388731625493765e-003), _F(4.166664568298827e-002)]
_FOPI = _F(1.27323954473516)
_ONE, _HALF, _ZERO = _F(1.0), _F(0.5), _F(0.0)


def _log_f32(x: np.ndarray) -> np.ndarray:
    """log256_ps for x in (0, 1] (no denormals, no invalid inputs reach it from Box-Muller).

    GCC fuses a multiply into the add that uses it (-ffp-contract=fast with FMA enabled), so each
    Horner step is one fused multiply-add, as are the two steps that add e*log(2) back."""
    bits = x.view(np.int32)
    e = ((bits >> 23) - 0x7F).astype(np.float32) + _ONE
    xm = ((bits & ~0x7F800000) | 0x3F000000).view(np.float32)
    small = xm < _SQRTHF
    e = e - np.where(small, _ONE, _ZERO)
    xr = (xm - _ONE) + np.where(small, xm, _ZERO)
    z = xr * xr
    y = _fma32(_LOG_P[0], xr, _LOG_P[1])
    for p in _LOG_P[2:]:
        y = _fma32(y, xr, p)
    y = y * xr
    y = _fma32(y, z, e * _LOG_Q1)
    y = y - z * _HALF  # z * 0.5 is exact, so fused or not it is one rounding
    return _fma32(e, _LOG_Q2, xr + y)


def _sincos_f32(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sincos256_ps for theta >= 0, with the same fused multiply-adds."""
    y = theta * _FOPI
    j = y.astype(np.int32)  # cvttps: truncation
    j = (j + 1) & ~1
    yf = j.astype(np.float32)
    flip_sin = (j & 4) != 0
    poly = (j & 2) == 0
    flip_cos = ((j - 2) & 4) == 0
    xr = _fma32(yf, _DP[0], theta)
    xr = _fma32(yf, _DP[1], xr)
    xr = _fma32(yf, _DP[2], xr)
    z = xr * xr
    yc = _fma32(_COS_P[0], z, _COS_P[1])
    yc = _fma32(yc, z, _COS_P[2])
    yc = yc * z
    yc = _fma32(yc, z, -(z * _HALF))
    yc = yc + _ONE
    ys = _fma32(_SIN_P[0], z, _SIN_P[1])
    ys = _fma32(ys, z, _SIN_P[2])
    ys = ys * z
    ys = _fma32(ys, xr, xr)
    # The blend of the two polynomials, with its additions of +0.0, as the intrinsics do it.
    sin_part = np.where(poly, ys, _ZERO)
    cos_part = np.where(poly, _ZERO, yc)
    sin = cos_part + sin_part
    cos = (yc - cos_part) + (ys - sin_part)
    sin = np.where(flip_sin, -sin, sin)
    cos = np.where(flip_cos, -cos, cos)
    return sin, cos


_LANES = 16384  # lanes per chunk: the temporaries of one chunk stay in the L2 cache

_LOG_P64 = [float(c) for c in _LOG_P]
_COS_P64 = [float(c) for c in _COS_P]
_SIN_P64 = [float(c) for c in _SIN_P]


def _cephes_lanes(
    u1: np.ndarray,
    u2: np.ndarray,
    out_cos: np.ndarray | None = None,
    out_sin: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """radius * cos(theta) + 0, radius * sin(theta) + 0 of NormalFill16<float>, fast (float32).

    The operations of _log_f32 and _sincos_f32. Additions, subtractions, products and sqrt are
    NumPy's float32 ones (IEEE's, as the AVX2 instructions). A fused multiply-add whose product
    is exact in float32 (a small integer times a constant of few bits: e * 0.693359375, and the
    first two steps of the angle's reduction) is a float32 product and sum. Any other fused
    multiply-add is a float64 multiply-add rounded once to float32: the product is exact, the sum
    may round twice, which is wrong only when the float64 sum was inexact and landed on a float32
    midpoint; no input of Box-Muller reaches that: all 2**24 possible u1 and u2 were checked (see
    the exhaustive test). Mixed float32/float64 ufunc calls are avoided (NumPy buffers them):
    conversions are copyto calls into preallocated arrays. u1 (contiguous) and u2 have one shape;
    the results have it too, written into out_cos/out_sin when given."""
    f32, f64, i32 = np.float32, np.float64, np.int32
    shape = u1.shape
    n = u1.size
    t = np.empty(n, f64)  # float64 multiply-adds
    a64 = np.empty(n, f64)  # float32 operands widened
    b64 = np.empty(n, f64)

    def fma_into(dst32: np.ndarray, a: np.ndarray, b: Any, c: Any) -> None:
        np.multiply(a, b, out=t)
        np.add(t, c, out=t)
        np.copyto(dst32, t, casting="same_kind")

    # log256_ps(u1), u1 in (0, 1]: u1 = 2**e * xm with xm in [0.5, 1), folded to [sqrt(.5), sqrt(2))
    bits = u1.reshape(-1).view(i32)
    mant = bits & 0x007FFFFF
    small = (mant < 0x3504F3).astype(i32)  # xm < sqrt(0.5): the same comparison on the bits
    e = bits >> 23
    e -= 0x7E
    e -= small
    e32 = e.astype(f32)
    small <<= 23
    mant |= 0x3F000000
    mant += small  # xm, or 2 xm when small: one more in the exponent
    xr = mant.view(f32)
    xr -= _ONE  # exact: xm - 1, or (xm - 1) + xm = 2 xm - 1 (Sterbenz)
    xr64 = np.empty(n, f64)
    np.copyto(xr64, xr)
    y = np.empty(n, f32)
    fma_into(y, xr64, _LOG_P64[0], _LOG_P64[1])
    for p in _LOG_P64[2:]:
        np.copyto(a64, y)
        fma_into(y, a64, xr64, p)
    y *= xr
    z = xr * xr
    q1 = e32 * _LOG_Q1
    np.copyto(a64, y)
    np.copyto(b64, z)
    np.multiply(a64, b64, out=t)
    np.copyto(a64, q1)
    t += a64
    np.copyto(y, t, casting="same_kind")
    z *= _HALF  # exact
    y -= z
    y += xr
    e32 *= _LOG_Q2  # exact: 9 bits times a small integer, so the fused multiply-add is a sum
    y += e32
    y *= f32(-2.0)
    radius = np.sqrt(y, out=y)

    # sincos256_ps(theta), theta = float32(2 pi) * u2 >= 0
    # (Arrays of the log part are reused: fewer of them stay in the cache.)
    theta = np.multiply(u2, _TWO_PI_F32, out=q1.reshape(shape)).reshape(-1)
    w = np.multiply(theta, _FOPI, out=e32)
    j = small
    np.copyto(j, w, casting="unsafe")  # cvttps: truncation
    j += 1
    j &= ~1
    yf = j.astype(f32)
    np.multiply(yf, _DP[0], out=w)  # exact products (the reduction's constants have 8 and 12
    np.add(theta, w, out=xr)  # bits, yf is an even integer <= 8): fused = product, then sum
    np.multiply(yf, _DP[1], out=w)
    xr += w
    np.copyto(a64, yf)
    np.multiply(a64, float(_DP[2]), out=t)
    np.copyto(xr64, xr)
    t += xr64
    np.copyto(xr, t, casting="same_kind")
    np.copyto(xr64, xr)
    np.multiply(xr, xr, out=z)
    z64 = b64
    np.copyto(z64, z)
    yc = theta  # (theta is not needed any more)
    fma_into(yc, z64, _COS_P64[0], _COS_P64[1])
    np.copyto(a64, yc)
    fma_into(yc, a64, z64, _COS_P64[2])
    yc *= z
    np.copyto(a64, yc)
    np.multiply(a64, z64, out=t)
    np.multiply(z64, 0.5, out=a64)  # exact
    t -= a64
    np.copyto(yc, t, casting="same_kind")
    yc += _ONE
    ys = w
    fma_into(ys, z64, _SIN_P64[0], _SIN_P64[1])
    np.copyto(a64, ys)
    fma_into(ys, a64, z64, _SIN_P64[2])
    ys *= z
    np.copyto(a64, ys)
    np.multiply(a64, xr64, out=t)
    t += xr64
    np.copyto(ys, t, casting="same_kind")
    # The blend as the intrinsics do it (and/andnot with the mask, then additions: the selected
    # value + 0.0), by an xor swap (NumPy's where() is slow on random masks): where (j & 2) == 0
    # the sine polynomial gives sin; the +0.0 is the one added at the end.
    keep = np.bitwise_and(j, 2, out=e)
    keep >>= 1
    keep -= 1  # all ones where (j & 2) == 0
    ys_bits, yc_bits = ys.view(i32), yc.view(i32)
    swap = np.bitwise_xor(ys_bits, yc_bits, out=yf.view(i32))
    swap &= keep
    ys_bits ^= swap  # now cos
    yc_bits ^= swap  # now sin
    # The sign flips (an xor of the sign bit) go into copies of the radius: flip cos where
    # ((j - 2) & 4) == 0, sin where (j & 4) != 0.
    rbits = radius.view(i32)
    flip = np.subtract(j, 2, out=keep)
    flip &= 4
    flip ^= 4
    flip <<= 29
    flip ^= rbits
    np.multiply(flip.view(f32), ys, out=ys)
    j &= 4
    j <<= 29
    j ^= rbits
    np.multiply(j.view(f32), yc, out=yc)
    out_cos = np.add(ys.reshape(shape), _ZERO, out=out_cos)  # -0.0 becomes +0.0
    out_sin = np.add(yc.reshape(shape), _ZERO, out=out_sin)
    return out_cos, out_sin


def _box_muller16_f32(u: np.ndarray, mean: float, std: float) -> np.ndarray:
    """NormalFill16<float> (AVX2) on rows of 16 uniforms: u1 = 1 - row[:8], u2 = row[8:], then
    fma(r * cos, std, mean) into row[:8] and fma(r * sin, std, mean) into row[8:]. u is the
    uniforms, or (uint32) the words they are made of, made into uniforms piece by piece. The
    halves are separated into contiguous arrays and interleaved back as whole 32-byte items
    (see _HALF16)."""
    words = u.dtype == np.uint32
    flat = u.reshape(-1)
    out = np.empty(flat.size, np.float32)
    out_pairs = out.view(_HALF8_F32).reshape(-1, 2)
    m32, s32 = np.float32(mean), np.float32(std)
    plain = m32 == 0 and s32 == 1
    step = _LANES * 2
    cos_buf = np.empty(_LANES, np.float32)  # reused: they stay in the cache
    sin_buf = np.empty(_LANES, np.float32)
    for start in range(0, flat.size, step):
        block = flat[start : start + step]
        if words:
            block = _unit_from_words32(block)
        pairs = block.view(_HALF8_F32).reshape(-1, 2)
        u1 = np.ascontiguousarray(pairs[:, 0]).view(np.float32)
        u2 = np.ascontiguousarray(pairs[:, 1]).view(np.float32)
        np.subtract(_ONE, u1, out=u1)  # exact
        # fma(n, 1, 0) is n + 0: the lanes add +0.0 (-0.0 becomes +0.0) as they finish.
        k = u1.size
        n1, n2 = _cephes_lanes(u1, u2, cos_buf[:k], sin_buf[:k])
        if not plain:
            n1 = _fma32(n1, s32, m32)
            n2 = _fma32(n2, s32, m32)
        rows = slice(start // 16, (start + 2 * k) // 16)
        out_pairs[rows, 0] = n1.view(_HALF8_F32)
        out_pairs[rows, 1] = n2.view(_HALF8_F32)
    return out


# Eight floats as one item (as _HALF16 for float64).
_HALF8_F32 = np.dtype((np.void, 32))


# Eight float64s as one item: the halves of a block of 16 copy as whole items, in one loop (a
# (rows, 8) slice copies in loops of 8 elements, several times slower).
_HALF16 = np.dtype((np.void, 64))
_TWO_PI_ULP53 = 2.0 * math.pi * 2.0**-53  # exact: 2 pi (a double) scaled by a power of two


def _box_muller16_f64(
    u: np.ndarray | int, mean: float, std: float, gen: Generator | None = None
) -> np.ndarray:
    """NormalFill16<double>: libm log/cos/sin on 8 pairs, std::fma(r * cos, std, mean).

    Written for speed (float64 randn of 10**6 is mostly this, and most of that is libm's sin and
    cos): one pass of pieces whose buffers are reused (they stay in the cache, and the only new
    memory is the result); the halves of each block of 16 are separated into contiguous arrays
    and interleaved back as whole 64-byte items (_HALF16). Where the log is in doubt (see
    _accurate_log) the piece keeps the input and the cos and sin, and those results are redone
    once at the end, with libm's logs in bulk. u is the uniforms, or (uint64) the 64-bit draws
    they are made of, or with `gen` their count (a multiple of 16), drawn piece by piece."""
    size = u if isinstance(u, int) else u.size
    flat = None if isinstance(u, int) else u.reshape(-1)
    fast_log = sys.platform.startswith("linux")
    numpy_trig = _numpy_trig_is_libm()
    out = np.empty(size, np.float64)
    out_pairs = out.view(_HALF16).reshape(-1, 2)
    lanes = min(_LANES, size // 2)
    u1 = np.empty(lanes, np.float64)  # 1 - the first 8 of each 16; then the cos
    theta = np.empty(lanes, np.float64)  # the other 8: the angles; then the sin
    logs = np.empty(lanes, np.float64)  # the log, then the radius
    doubt = np.empty(lanes, np.bool_)
    later: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    zero_radius = False
    ints = np.empty(2 * lanes, np.int64) if flat is None else None
    for start in range(0, size, 2 * lanes):
        if ints is not None:
            # From the integers k of the uniforms k * 2**-53 (gen.low53): 1 - u is exactly
            # (2**53 - k) * 2**-53, and 2 pi u rounds as k * (2 pi * 2**-53) does (scaling by a
            # power of two commutes with rounding); x within 2**-8 of 1 is k < 2**45.
            words = gen.low53(min(2 * lanes, size - start))  # type: ignore[union-attr]
            k = words.size // 2
            x, angle, radius, unsure = u1[:k], theta[:k], logs[:k], doubt[:k]
            pairs = words.view(_HALF16).reshape(-1, 2)
            kx, ka = ints[:k], ints[lanes : lanes + k]
            kx.view(_HALF16)[...] = pairs[:, 0]
            ka.view(_HALF16)[...] = pairs[:, 1]
            np.multiply(ka, _TWO_PI_ULP53, out=angle)
            np.subtract(1 << 53, kx, out=kx)
            np.multiply(kx, 2.0**-53, out=x)
            if fast_log:
                _accurate_log(x, radius, unsure, near1=False, unit=True)
                near = np.greater(kx, (1 << 53) - (1 << 45), out=ka.view(np.bool_)[:k])
                unsure |= near  # (so a zero radius, x = 1, is among the lanes redone below)
                redo = np.flatnonzero(unsure)
                xs = x[redo]
            else:
                radius[...] = _libm_log(x)
        else:
            block = flat[start : start + 2 * lanes]  # type: ignore[index]
            if block.dtype == _U64:
                block = _unit_from_words64(block)
            k = block.size // 2
            x, angle, radius, unsure = u1[:k], theta[:k], logs[:k], doubt[:k]
            pairs = block.view(_HALF16).reshape(-1, 2)
            x.view(_HALF16)[...] = pairs[:, 0]
            angle.view(_HALF16)[...] = pairs[:, 1]
            np.subtract(1.0, x, out=x)
            if fast_log:
                _accurate_log(x, radius, unsure)
                redo = np.flatnonzero(unsure)
                xs = x[redo]
            else:
                radius[...] = _libm_log(x)
            angle *= 2.0 * math.pi
        radius *= -2.0
        np.sqrt(radius, out=radius)
        if not fast_log or ints is None:
            zero_radius = zero_radius or not radius.all()
        if numpy_trig:
            cos = np.cos(angle, out=x)
            sin = np.sin(angle, out=angle)
        else:
            cos, sin = _libm_cos(angle), _libm_sin(angle)
        if fast_log and redo.size:
            later.append((redo + start // 2, xs, cos[redo], sin[redo]))
        cos *= radius
        sin *= radius
        rows = slice(start // 16, (start + 2 * k) // 16)
        out_pairs[rows, 0] = cos.view(_HALF16)
        out_pairs[rows, 1] = sin.view(_HALF16)
    if later:
        where, xs, cos, sin = (np.concatenate(parts) for parts in zip(*later))
        radius = _log_of_doubts(xs)
        radius *= -2.0
        np.sqrt(radius, out=radius)
        zero_radius = zero_radius or not radius.all()
        # lane l of the halves is element l % 8 of row l // 8: at 16 * (l // 8) + l % 8 (cos)
        # and 8 more (sin)
        at = where + (where >> 3 << 3)
        out[at] = radius * cos
        out[at + 8] = radius * sin
    if mean == 0.0 and std == 1.0:
        # fma(z, 1, 0) = z + 0: a -0.0 (a zero radius times a negative cos/sin) becomes +0.0.
        if zero_radius:
            out += 0.0
    else:
        out = _fma64(out, std, mean)
    return out


def _normal_fill(gen: Generator, n: int, mean: float, std: float, dt: _DType) -> np.ndarray:
    """normal_fill: n uniforms, Box-Muller on each block of 16 in place; when n is not a multiple
    of 16 the last 16 positions are redrawn (16 more uniforms) and transformed again."""
    full = n // 16 * 16
    if dt.name == "float64":
        # The 64-bit draws, made piece by piece as Box-Muller goes (in the cache).
        body = _box_muller16_f64(full, mean, std, gen)
        if full == n:
            return body
        gen.random64(n - full)  # normal_fill's uniforms past the last whole block: unused
        out64 = np.empty(n, np.float64)
        out64[:full] = body
        out64[n - 16 :] = _box_muller16_f64(_unit_f64(gen, 16), mean, std)
        return out64
    if dt.name == "float32":
        u = gen.words32(n)  # made into uniforms piece by piece as Box-Muller goes
        transform = _box_muller16_f32
    else:
        # float16/bfloat16 draw 16 float uniforms per whole block into a buffer: no uniforms
        # for the positions the tail redraws.
        u = np.zeros(n, np.float32)
        u[:full] = _unit_f32(gen, full)
        transform = _box_muller16_f32
    body = transform(u[:full], mean, std)
    if dt.name in ("float64", "float32"):
        if full == n:
            return body
        # The positions past the last whole block are all in the last 16, which the tail's
        # redraw overwrites (n >= 16 here): they need no values from u.
        out = np.empty(n, body.dtype)
    else:
        out = u.copy()
    out[:full] = body
    if n % 16:
        tail = _unit_f64(gen, 16) if dt.name == "float64" else _unit_f32(gen, 16)
        out[n - 16 :] = transform(tail, mean, std)
    if dt.name in ("float64", "float32"):
        return out
    return _cast_float(out, dt)


def _normal_scalar(gen: Generator, n: int, mean: float, std: float) -> np.ndarray:
    """at::normal_distribution<double>, element after element: each pair of 64-bit uniforms gives
    r*cos(theta) now and r*sin(theta) cached in the generator for the next element (even one of
    a later call); each value is fma(z, std, mean) in double."""
    out = np.empty(n, np.float64)
    i = 0
    if gen._next_double is not None:
        out[0] = gen._next_double
        gen._next_double = None
        i = 1
    rest = n - i
    if rest:
        pairs = (rest + 1) // 2
        w = gen.random64(2 * pairs) & _U64(_MASK53)
        uu = w.astype(np.float64) * 2.0**-53
        u1, u2 = uu[0::2], uu[1::2]
        radius = np.sqrt(-2.0 * _libm_log1p(-u2))
        theta = (2.0 * math.pi) * u1
        both = np.empty(2 * pairs, np.float64)
        both[0::2] = radius * _libm_cos(theta)
        both[1::2] = radius * _libm_sin(theta)
        out[i:] = both[:rest]
        if rest % 2:
            gen._next_double = float(both[-1])
    return _fma64(out, std, mean)


def _normal_values(
    gen: Generator,
    shape: tuple[int, ...],
    mean: float,
    std: float,
    dt: _DType,
    strides: Sequence[int] | None,
) -> np.ndarray:
    n = math.prod(shape)
    if n >= 16 and is_contiguous(shape, strides):
        return _normal_fill(gen, n, mean, std, dt).reshape(shape)
    return _place(_cast_from_double(_normal_scalar(gen, n, mean, std), dt), shape, strides)


def normal_(
    size: Any,
    mean: float = 0.0,
    std: float = 1.0,
    *,
    dtype: Any = "float32",
    generator: Generator | None = None,
    strides: Sequence[int] | None = None,
) -> np.ndarray:
    """torch.empty(size, dtype=dtype).normal_(mean, std, generator=g) (laid out as `strides`)."""
    parts = _complex_parts(dtype)
    if parts is not None:
        # PyTorch's draw on the real view: each part normal about `mean`, with half the
        # variance (std / sqrt(2))
        return _complex_drawn(
            normal_(
                _parts_shape(size),
                mean,
                float(std) / math.sqrt(2.0),
                dtype=parts,
                generator=generator,
            )
        )
    dt = _dtype(dtype)
    mean, std = float(mean), float(std)
    if not std >= 0.0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    shape = _shape(size)
    if math.prod(shape) == 0:  # PyTorch returns before its kernel checks the dtype
        return np.empty(shape, dt.storage)
    _check_float(dt, "normal_kernel_cpu")
    return _normal_values(_gen(generator), shape, mean, std, dt, strides)


def randn(
    *size: Any,
    dtype: Any = "float32",
    generator: Generator | None = None,
    strides: Sequence[int] | None = None,
) -> np.ndarray:
    """torch.randn(*size, dtype=..., generator=...): normal_(0, 1) on a new tensor."""
    return normal_(_varargs(size), 0.0, 1.0, dtype=dtype, generator=generator, strides=strides)


def _is_tensor(x: Any) -> bool:
    return isinstance(x, np.ndarray)


def _result_dtype(*arrays: np.ndarray) -> np.dtype:
    return np.result_type(*arrays)


def normal(
    mean: Any,
    std: Any = 1.0,
    size: Any = None,
    *,
    dtype: Any = None,
    generator: Generator | None = None,
) -> np.ndarray:
    """torch.normal, every overload (NumPy arrays stand for tensors, Python numbers for floats):

    * normal(mean: float, std: float, size): empty(size).normal_(mean, std);
    * normal(mean: Tensor, std: float): normal_(0, std) on a tensor shaped like mean, + mean;
    * normal(mean: float, std: Tensor): normal_(0, 1) shaped like std, * std, + mean;
    * normal(mean: Tensor, std: Tensor): normal_(0, 1) of the broadcast shape, * std, + mean
      (the result has mean's dtype).
    """
    gen = _gen(generator)
    if not _is_tensor(mean) and not _is_tensor(std):
        if size is None:
            raise TypeError("normal(float mean, float std) needs a size")
        return normal_(size, float(mean), float(std), dtype=dtype or "float32", generator=gen)
    if _is_tensor(mean) and not _is_tensor(std):
        std = float(std)
        if not std >= 0.0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
        dt = _dtype(mean.dtype)
        out = (
            _normal_values(gen, mean.shape, 0.0, std, dt, None)
            if mean.size
            else np.empty(mean.shape, dt.storage)
        )
        return (out + mean).astype(dt.storage)
    std = np.asarray(std)
    if std.size and not np.all(std >= 0):
        raise RuntimeError("normal expects all elements of std >= 0.0")
    if not _is_tensor(mean):
        dt = _dtype(std.dtype)
        z = (
            _normal_values(gen, std.shape, 0.0, 1.0, dt, None)
            if std.size
            else np.empty(std.shape, dt.storage)
        )
        # output.mul_(std).add_(full({}, mean)): in the output's dtype.
        return ((z * std).astype(dt.storage) + dt.storage.type(mean)).astype(dt.storage)
    shape = np.broadcast_shapes(mean.shape, std.shape)
    dt = _dtype(mean.dtype)
    n = math.prod(shape)
    z = _normal_values(gen, shape, 0.0, 1.0, dt, None) if n else np.empty(shape, dt.storage)
    # In-place ops keep the output's dtype but compute in the promoted one.
    z = (z * std).astype(dt.storage)
    return (z + mean).astype(dt.storage)


# ---------------------------------------------------------------------------------------------
# Integers: random_, randint, randperm
# ---------------------------------------------------------------------------------------------

_I64_MIN = -(1 << 63)
_I64_MAX = (1 << 63) - 1


def _update_from(frm: int, dt: _DType) -> int:
    """templates::update_from: move `from` right until it survives the cast to the float dtype."""
    plus1 = int(_to_dtype_int(frm + 1, dt))
    if plus1 < frm:
        mag = abs(frm + 1)
        n = mag.bit_length() - 1
        frm = plus1 + (1 << (n - dt.digits + 1))
    return frm


def _update_to(to: int, dt: _DType) -> int:
    minus1 = int(_to_dtype_int(to - 1, dt))
    if minus1 >= to:
        mag = abs(to - 1)
        n = mag.bit_length() - 1
        to = minus1 - (1 << (n - dt.digits + 1))
    return to


def _to_dtype_int(value: int, dt: _DType) -> float:
    """static_cast<int64_t>(static_cast<scalar_t>(value)) for a float dtype."""
    x = np.array([value], np.int64).astype(np.float64)
    if dt.name == "float32":
        x = x.astype(np.float32)
    elif dt.name == "float16":
        x = x.astype(np.float32).astype(np.float16)
    elif dt.name == "bfloat16":
        x = _to_bfloat16(np.array([value], np.int64).astype(np.float32))
    with np.errstate(invalid="ignore"):
        return int(np.clip(x.astype(np.float64), -(2.0**63), 2.0**63 - 1024).astype(np.int64)[0])


def _int_result(raw: np.ndarray, dt: _DType) -> np.ndarray:
    """static_cast<scalar_t>(int64 value)."""
    vals = raw.view(np.int64)
    if dt.kind == "b":
        return vals != 0
    if dt.kind == "f":
        if dt.name == "bfloat16":
            return _to_bfloat16(vals.astype(np.float32))
        if dt.name == "float16":
            return vals.astype(np.float32).astype(np.float16)
        return vals.astype(dt.storage)
    return vals.astype(dt.storage)  # two's complement wrap, as the C++ conversion


def _check_bounds(frm: int, to_inc: int, dt: _DType) -> None:
    if dt.kind == "f":
        lo, hi = dt.lowest, dt.highest
    else:
        lo, hi = dt.lowest, dt.highest
    if not lo <= frm <= hi:
        raise RuntimeError(f"from is out of bounds for {CPP_TYPE[dt.name]}")
    if not lo <= to_inc <= hi:
        raise RuntimeError(f"to - 1 is out of bounds for {CPP_TYPE[dt.name]}")
    if dt.kind == "f":  # PyTorch's warning past the integers the float dtype holds exactly
        for value, name in ((frm, "from"), (to_inc, "to - 1")):
            if not -(1 << dt.digits) <= value <= 1 << dt.digits:
                warnings.warn(
                    f"{name} is out of bounds [-(2^{dt.digits}), 2^{dt.digits}]. Due to "
                    f"precision limitations {CPP_TYPE[dt.name]} can support discrete uniform "
                    "distribution only within this range. This warning will become an error in "
                    "version 1.7 release, please fix the code in advance",
                    stacklevel=2,
                )


def _random_from_to(gen: Generator, n: int, rng: int, base: int) -> np.ndarray:
    """uniform_int_from_to_distribution: 64-bit draws when range >= 2**28, else 32-bit."""
    w = gen.random64(n) if rng >= 1 << 28 else gen.random32(n)
    return (w % _U64(rng)) + _U64(base % (1 << 64))  # wraps modulo 2**64 as uint64 does


def random_(
    size: Any,
    *bounds: int | None,
    dtype: Any = "int64",
    generator: Generator | None = None,
    strides: Sequence[int] | None = None,
) -> np.ndarray:
    """Tensor.random_ on torch.empty(size, dtype=dtype), with torch's positional overloads:

    random_(size) -> [0, 2**mantissa] for floats, [0, max] for integers;
    random_(size, to) -> [0, to); random_(size, from, to) -> [from, to);
    random_(size, from, None) -> [from, max]; random_(size, -2**63, None) -> all 64-bit values.
    """
    if len(bounds) > 2:
        raise TypeError("random_() takes at most two bounds (from, to)")
    from_: int | None = None
    to: int | None = None
    if len(bounds) == 1:
        if bounds[0] is None:
            raise TypeError("random_(to): to must be an int")
        to = bounds[0]
    elif len(bounds) == 2:
        from_, to = bounds
        if from_ is None:
            raise TypeError("random_(from, to): from must be an int")
    dt = _dtype(dtype)
    shape = _shape(size)
    n = math.prod(shape)
    gen = _gen(generator)
    if not bounds:
        if n == 0:
            return np.empty(shape, dt.storage)
        raw = _random_plain(gen, n, dt)
        return _place(raw, shape, strides)
    if from_ is not None and to is None and from_ == _I64_MIN:
        if dt.name not in ("int64", "float64", "float32", "bfloat16"):
            raise RuntimeError(
                "random_full_64_bits_range_kernel_cpu handles only int64, double, float and "
                "bfloat16"
            )
        if n == 0:
            return np.empty(shape, dt.storage)
        return _place(_int_result(gen.random64(n), dt), shape, strides)
    frm = 0 if from_ is None else int(from_)
    if to is not None:
        to = int(to)
        if not frm < to:
            raise RuntimeError(
                f"random_ expects 'from' to be less than 'to', but got from={frm} >= to={to}"
            )
        if dt.kind == "f":
            frm, to = _update_from(frm, dt), _update_to(to, dt)
            if not frm < to:
                raise RuntimeError(
                    "random_ expects 'from' casted to dtype to be less than 'to' casted to dtype"
                )
        _check_bounds(frm, to - 1, dt)
        rng = (to - frm) % (1 << 64)
    else:
        if dt.kind == "f":
            to_inc = min(1 << dt.digits, _I64_MAX)
            frm = _update_from(frm, dt)
            if not frm < to_inc:
                raise RuntimeError(
                    "random_ expects 'from' casted to dtype to be less than 'to_inc'"
                )
        else:
            to_inc = int(dt.highest)
        _check_bounds(frm, to_inc, dt)
        rng = (to_inc - frm + 1) % (1 << 64)
    if n == 0:
        return np.empty(shape, dt.storage)
    return _place(_int_result(_random_from_to(gen, n, rng, frm), dt), shape, strides)


def _random_plain(gen: Generator, n: int, dt: _DType) -> np.ndarray:
    """uniform_int_distribution<T> (random_() without bounds)."""
    if dt.name in ("float64", "int64"):
        w = gen.random64(n)
    else:
        w = gen.random32(n)
    if dt.kind == "b":
        return (w & _U64(1)) != 0
    if dt.kind == "f":
        vals = w % _U64((1 << dt.digits) + 1)
        return _int_result(vals, dt)
    modulus = int(dt.highest) + 1
    return (w % _U64(modulus)).astype(np.int64).astype(dt.storage)


def randint(
    low: int,
    high: int | None = None,
    size: Any = (),
    *,
    dtype: Any = "int64",
    generator: Generator | None = None,
    strides: Sequence[int] | None = None,
) -> np.ndarray:
    """torch.randint(low=0, high, size): empty(size, dtype).random_(low, high)."""
    if high is None:
        low, high = 0, low
    return random_(size, int(low), int(high), dtype=dtype, generator=generator, strides=strides)


def randperm(n: int, *, dtype: Any = "int64", generator: Generator | None = None) -> np.ndarray:
    """torch.randperm(n): Fisher-Yates from the front, swap i with i + random() % (n - i).

    The draws do not depend on the swaps, so they are taken at once; the swaps run in order.
    """
    n = int(n)
    if n < 0:
        raise RuntimeError(f"n must be non-negative, got{n}")
    dt = _dtype(dtype)
    if dt.kind == "f" and n > (1 << dt.digits) + 1:
        raise RuntimeError(
            f"n cannot be greater than {(1 << dt.digits) + 1} for {SCALAR_TYPE[dt.name]} type."
        )
    if dt.kind == "b":
        raise NotImplementedError("\"randperm\" not implemented for 'Bool'")
    if dt.kind in "iu" and n - 1 > dt.highest:
        names = {"int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t", "int32": "int"}
        raise RuntimeError(
            f"value cannot be converted to type {names.get(dt.name, dt.name)} without overflow"
        )
    if n >= 0xFFFFFFFF // 20:
        raise NotImplementedError("randperm of 2**32 / 20 elements or more (PyTorch's 64-bit path)")
    perm = list(range(n))
    if n > 1:
        span = np.arange(n, 1, -1, dtype=np.uint64)
        picks = _gen(generator).random32(n - 1) % span
        picks += np.arange(n - 1, dtype=np.uint64)  # the positions swapped with 0, 1, 2, ...
        # In pieces, the clock checked between them (10**6 swaps take about a second).
        for start in range(0, n - 1, _SWAPS):
            if CLOCK_CHECK is not None:
                CLOCK_CHECK()
            for i, j in enumerate(picks[start : start + _SWAPS].tolist(), start):
                perm[i], perm[j] = perm[j], perm[i]
    return _int_result(np.array(perm, np.int64).view(np.uint64), dt)


_SWAPS = 1 << 18  # swaps of randperm between two clock checks


# ---------------------------------------------------------------------------------------------
# exponential, bernoulli, multinomial, dropout
# ---------------------------------------------------------------------------------------------


def _exponential_values(gen: Generator, n: int, lambd: float) -> np.ndarray:
    """exponential_distribution<double>: (-1 / lambda) * log1p(-u), u a 53-bit uniform."""
    u = _unit_f64(gen, n)
    return (-1.0 / lambd) * _libm_log1p(-u)


def exponential_(
    size: Any,
    lambd: float = 1.0,
    *,
    dtype: Any = "float32",
    generator: Generator | None = None,
    strides: Sequence[int] | None = None,
) -> np.ndarray:
    """torch.empty(size, dtype=dtype).exponential_(lambd)."""
    dt = _dtype(dtype)
    lambd = float(lambd)
    if not lambd > 0.0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd:g}")
    shape = _shape(size)
    n = math.prod(shape)
    if n == 0:  # PyTorch returns before its kernel checks the dtype
        return np.empty(shape, dt.storage)
    if dt.kind != "f":
        raise RuntimeError(
            "Exponential distribution is a continuous probability distribution. dtype must be a "
            f"floating point but you specified {SCALAR_TYPE[dt.name]}"
        )
    vals = _cast_from_double(_exponential_values(_gen(generator), n, lambd), dt)
    return _place(vals, shape, strides)


def _continuous_check(dt: _DType, name: str) -> None:
    if dt.kind != "f":
        raise RuntimeError(
            f"{name} distribution is a continuous probability distribution. dtype must be a "
            f"floating point but you specified {CPP_TYPE[dt.name]}"
        )


def _from_double_to(values: np.ndarray, dt: _DType) -> np.ndarray:
    """static_cast<scalar_t>(double): floats round (half and bfloat16 through float); integer
    types truncate, a value outside int64 (or inf, NaN) becoming INT64_MIN as x86's conversion
    gives, then wrap to the type's width."""
    if dt.kind == "f":
        return _cast_from_double(values, dt)
    inside = np.isfinite(values) & (values >= -(2.0**63)) & (values < 2.0**63)
    ints = np.where(inside, values, 0.0).astype(np.int64)
    ints[~inside] = np.iinfo(np.int64).min
    return ints.astype(dt.storage)


def geometric_(
    size: Any,
    p: float,
    *,
    dtype: Any = "float32",
    generator: Generator | None = None,
    strides: Sequence[int] | None = None,
) -> np.ndarray:
    """torch.empty(size, dtype=dtype).geometric_(p): ceil(log(u) / log1p(-p)) in double, u a
    53-bit uniform, element after element (any dtype but bool)."""
    dt = _dtype(dtype)
    if dt.kind == "b":
        raise NotImplementedError("\"geometric_cpu\" not implemented for 'Bool'")
    p = float(p)
    if not 0.0 < p < 1.0:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    shape = _shape(size)
    n = math.prod(shape)
    if n == 0:
        return np.empty(shape, dt.storage)
    u = _unit_f64(_gen(generator), n)
    with np.errstate(divide="ignore", over="ignore"):
        vals = np.ceil(_libm_log(u) / math.log1p(-p))
    return _place(_from_double_to(vals, dt), shape, strides)


def log_normal_(
    size: Any,
    mean: float = 1.0,
    std: float = 2.0,
    *,
    dtype: Any = "float32",
    generator: Generator | None = None,
    strides: Sequence[int] | None = None,
) -> np.ndarray:
    """torch.empty(size, dtype=dtype).log_normal_(mean, std): exp of at::normal_distribution<
    double>(mean, std), element after element (the pair-and-cache path of small normal_)."""
    dt = _dtype(dtype)
    mean, std = float(mean), float(std)
    if not std > 0.0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std:g}")
    shape = _shape(size)
    n = math.prod(shape)
    if n == 0:  # PyTorch returns before its kernel checks the dtype
        return np.empty(shape, dt.storage)
    if dt.kind != "f":
        raise NotImplementedError(
            f"\"log_normal_cpu\" not implemented for '{SCALAR_TYPE[dt.name]}'"
        )
    z = _normal_scalar(_gen(generator), n, mean, std)
    vals = _map_math(_exp_or_inf, z)
    return _place(_cast_from_double(vals, dt), shape, strides)


def _exp_or_inf(v: float) -> float:
    try:
        return math.exp(v)
    except OverflowError:
        return math.inf


def cauchy_(
    size: Any,
    median: float = 0.0,
    sigma: float = 1.0,
    *,
    dtype: Any = "float32",
    generator: Generator | None = None,
    strides: Sequence[int] | None = None,
) -> np.ndarray:
    """torch.empty(size, dtype=dtype).cauchy_(median, sigma): median + sigma * tan(pi * (u -
    0.5)) in double (one fused multiply-add), u a 53-bit uniform."""
    dt = _dtype(dtype)
    _continuous_check(dt, "Cauchy")
    median, sigma = float(median), float(sigma)
    if not sigma > 0.0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma:g}")
    shape = _shape(size)
    n = math.prod(shape)
    if n == 0:
        return np.empty(shape, dt.storage)
    u = _unit_f64(_gen(generator), n)
    t = _map_math(math.tan, math.pi * (u - 0.5))
    return _place(_cast_from_double(_fma64(t, sigma, median), dt), shape, strides)


POISSON_MAX_DRAWS = 10**7  # uniforms one poisson() may draw before it is stopped


def poisson(rates: np.ndarray, *, generator: Generator | None = None) -> np.ndarray:
    """torch.poisson(rates): one sample a rate, in the rates' dtype, element after element in
    C order: Knuth's product of uniforms below 10, Hoermann's transformed rejection (PTRS) from
    10 on, all in double with 53-bit uniforms, as ATen's sample_poisson (compiled without fused
    multiply-adds), with the C library's log, exp and lgamma."""
    rates = np.asarray(rates)
    dt = _dtype(rates.dtype)
    if dt.kind != "f":
        raise NotImplementedError(f"\"poisson_cpu\" not implemented for '{SCALAR_TYPE[dt.name]}'")
    flat = np.ascontiguousarray(rates).reshape(-1).astype(np.float64).tolist()
    if any(not lam >= 0 for lam in flat):
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    gen = _gen(generator)
    out = np.empty(len(flat), np.float64)
    expected = sum(min(lam, 10.0) + 1.0 if lam < 10 else 2.5 for lam in flat)
    stream = _UniformStream(gen, int(expected * 1.1) + 16, POISSON_MAX_DRAWS)
    for i, lam in enumerate(flat):
        out[i] = _poisson_one(lam, stream.next)
    stream.finish()
    return _cast_from_double(out, dt).reshape(rates.shape)


BINOMIAL_MAX_DRAWS = 10**7  # uniforms one binomial() may draw before it is stopped

# Stirling's-series remainder log(k!) - (k + 1/2) log(k + 1) + (k + 1) - log(sqrt(2 pi)) for
# k = 0..9 (the values ATen's BTRS sampler tabulates; larger k use the series below)
_STIRLING_TAIL = (
    0.0810614667953272,
    0.0413406959554092,
    0.0276779256849983,
    0.02079067210376509,
    0.0166446911898211,
    0.0138761288230707,
    0.0118967099458917,
    0.0104112652619720,
    0.00925546218271273,
    0.00833056343336287,
)


def binomial(
    counts: np.ndarray, probs: np.ndarray, *, generator: Generator | None = None
) -> np.ndarray:
    """torch.binomial(count, prob): one draw an element of two equal-shaped tensors of one
    floating dtype, element after element in C order, as ATen's CPU sample_binomial: 0 where
    count <= 0 or p <= 0, count where p >= 1, p > 1/2 mirrored (count minus a draw at 1 - p),
    below count * p < 10 the inversion by sums of geometric waiting times, above it Hormann's
    BTRS (transformed rejection with a squeeze and Stirling's tail), on 53-bit uniforms; count
    and p's own arithmetic in their dtype (float32 products, log1pf, sqrtf), the rest double."""
    counts, probs = np.asarray(counts), np.asarray(probs)
    dt = _dtype(counts.dtype)
    single = counts.dtype == np.float32
    f = np.float32 if single else np.float64
    cs = np.ascontiguousarray(counts).reshape(-1).tolist()
    ps = np.ascontiguousarray(probs).reshape(-1).tolist()
    gen = _gen(generator)
    stream = _UniformStream(gen, 3 * len(cs) + 16, BINOMIAL_MAX_DRAWS)
    out = np.empty(len(cs), np.float64)
    with np.errstate(all="ignore"):  # an infinite count overflows as in C, without a word
        for i, (n, p) in enumerate(zip(cs, ps)):
            out[i] = _binomial_one(n, p, f, stream.next)
    stream.finish()
    return _cast_from_double(out, dt).reshape(counts.shape)


def _binomial_one(n: float, p: float, f: Any, uniform: Any) -> float:
    if n <= 0.0 or p <= 0.0:
        return 0.0
    if p >= 1.0:
        return n
    if p <= 0.5:
        if float(f(n) * f(p)) >= 10.0:
            return _btrs(n, p, f, uniform)
        return _binomial_inversion(n, p, f, uniform)
    if p > 0.5:
        q = float(f(1.0 - p))  # computed in double, stored in the dtype
        if float(f(n) * f(q)) >= 10.0:
            return float(f(n) - f(_btrs(n, q, f, uniform)))
        return float(f(n) - f(_binomial_inversion(n, q, f, uniform)))
    return math.nan


_LOG1PF: Any = None


def _log1p_in(p: float, f: Any) -> float:
    """log1p(-p) as ATen's inversion computes it: the C library's log1pf for a float32 p."""
    global _LOG1PF
    if f is np.float64:
        return math.log1p(-p)
    if _LOG1PF is None:
        try:
            import ctypes
            import ctypes.util

            libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
            fn = libm.log1pf
            fn.restype = ctypes.c_float
            fn.argtypes = [ctypes.c_float]
            _LOG1PF = fn
        except (OSError, AttributeError):
            _LOG1PF = lambda x: float(np.log1p(np.float32(x)))  # noqa: E731
    return float(_LOG1PF(-p))


def _binomial_inversion(n: float, p: float, f: Any, uniform: Any) -> float:
    logq = _log1p_in(p, f)
    total = 0.0
    k = 0.0
    while True:
        u = uniform()
        wait = math.log(u) / logq if u > 0 else math.inf
        total += math.ceil(wait) if math.isfinite(wait) else wait
        if total > n:
            return k
        k += 1.0


def _c_log(x: float) -> float:
    """The C library's log where Python's refuses: -inf at 0, nan below 0 (an infinite count)."""
    if x > 0:
        return math.log(x)
    return -math.inf if x == 0 else math.nan


def _stirling_tail(k: float) -> float:
    if k <= 9:
        return _STIRLING_TAIL[int(k)]  # k is a whole number from 0 here
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _btrs(n: float, p: float, f: Any, uniform: Any) -> float:
    fn, fp = f(n), f(p)
    np_ = fn * fp  # in the dtype
    stddev = float(np.sqrt(np_ * (f(1) - fp)))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = float(np_) + 0.5
    v_r = 0.92 - 4.2 / b
    r = float(fp / (f(1) - fp))
    alpha = (2.83 + 5.1 / b) * stddev
    m = float(np.floor((fn + f(1)) * fp))
    while True:
        u = uniform() - 0.5
        v = uniform()
        us = 0.5 - abs(u)
        x = (2 * a / us + b) * u + c if us else math.copysign(math.inf, u)
        k = float(f(math.floor(x))) if math.isfinite(x) else x
        if k < 0 or k > n:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        lhs = _c_log(v * alpha / (a / (us * us) + b))
        nk1 = float(fn - f(k) + f(1))  # count - k + 1 in the dtype
        bound = (
            (m + 0.5) * _c_log((m + 1) / (r * (n - m + 1)))
            + float(fn + f(1)) * _c_log((n - m + 1) / nk1)
            + (k + 0.5) * _c_log(r * nk1 / float(f(k) + f(1)))
            + _stirling_tail(m)
            + _stirling_tail(n - m)
            - _stirling_tail(k)
            - _stirling_tail(float(fn - f(k)))
        )
        if lhs <= bound:
            return k


GAMMA_MAX_DRAWS = 10**7  # uniforms one standard_gamma() may draw before it is stopped
_THIRD_F = float(np.float32(1.0) / np.float32(3.0))  # ATen's 1.0f / 3.0f
_C0331_F = float(np.float32(0.0331))  # ATen's 0.0331f


def standard_gamma(
    alphas: np.ndarray, *, generator: Generator | None = None, double: bool = False
) -> np.ndarray:
    """torch._standard_gamma(alpha): one Gamma(alpha, 1) draw an element, in C order, as ATen's
    CPU sample_gamma: Marsaglia and Tsang's rejection with 53-bit uniforms and
    at::normal_distribution<double>'s normals (Box-Muller, the second value cached in the
    generator), alpha < 1 boosted by u^(1/alpha); alpha's own arithmetic (alpha + 1,
    alpha - 1/3) in its dtype, the rest in double; at least the dtype's smallest normal.
    `double`: the gammas of _sample_dirichlet (alpha taken as double, double results)."""
    alphas = np.asarray(alphas)
    dt = _dtype(alphas.dtype)
    if dt.name not in ("float32", "float64"):
        raise NotImplementedError(f"\"gamma_cpu\" not implemented for '{SCALAR_TYPE[dt.name]}'")
    single = alphas.dtype == np.float32 and not double
    flat = np.ascontiguousarray(alphas).reshape(-1)
    values = flat.astype(np.float64).tolist()
    gen = _gen(generator)
    cache = gen._next_double
    stream = _UniformStream(gen, int(len(values) * 2.3) + 16, GAMMA_MAX_DRAWS)
    draw = stream.next

    def normal() -> float:
        nonlocal cache
        if cache is not None:
            z, cache = cache, None
            return z
        u1, u2 = draw(), draw()
        r = math.sqrt(-2.0 * math.log1p(-u2))
        theta = 2.0 * math.pi * u1
        cache = r * math.sin(theta)
        return r * math.cos(theta)

    out = np.empty(len(values), np.float64)
    f32 = np.float32
    for i, alpha in enumerate(values):
        scale = 1.0
        if alpha < 1.0:
            if alpha == 0.0:
                out[i] = 0.0
                continue
            inv = float(f32(1.0) / f32(alpha)) if single else 1.0 / alpha
            scale *= math.pow(1 - draw(), inv)
            alpha = float(f32(alpha) + f32(1.0)) if single else alpha + 1.0
        d = float(f32(alpha) - f32(_THIRD_F)) if single else alpha - _THIRD_F
        c = 1.0 / math.sqrt(9.0 * d)
        while True:
            while True:
                x = normal()
                y = 1.0 + c * x
                if y > 0:
                    break
            v = y * y * y
            u = 1 - draw()
            xx = x * x
            if u < 1.0 - _C0331_F * xx * xx or math.log(u) < 0.5 * xx + d * (1.0 - v + math.log(v)):
                out[i] = scale * d * v
                break
    stream.finish()
    gen._next_double = cache
    if double:
        return np.maximum(out, np.finfo(np.float64).tiny).reshape(alphas.shape)
    res = _cast_from_double(out, dt)
    return np.maximum(res, np.finfo(res.dtype).tiny).reshape(alphas.shape)


class _UniformStream:
    """53-bit uniforms for a sampler that takes them one by one as it needs them (a number
    known only at the end): drawn ahead in batches, and at the end the generator is set back
    and moved on by exactly the number used, so that the next draw is PyTorch's next one."""

    def __init__(self, gen: Generator, batch: int, limit: int) -> None:
        self.gen, self.limit = gen, limit
        self.start = gen.get_state()
        self.batch = max(16, min(batch, limit + 1))
        self.buf: list[float] = []
        self.pos = 0
        self.used = 0  # uniforms handed out before the current batch

    def next(self) -> float:
        if self.pos == len(self.buf):
            self.used += len(self.buf)
            if self.used >= self.limit:
                raise RuntimeError(
                    f"more than {self.limit:,} uniform draws: gradcli stops the sampler there"
                )
            self.buf = _unit_f64(self.gen, self.batch).tolist()
            self.pos = 0
        self.pos += 1
        return self.buf[self.pos - 1]

    def finish(self) -> None:
        used = self.used + self.pos
        self.gen.set_state(self.start)
        self.gen.random64(used)


_LGAMMA: Any = None


def _libm_lgamma() -> Any:
    """The C library's lgamma, which PyTorch's Poisson sampler calls (Python's math.lgamma is
    Python's own: 1-3 ulps from glibc's on half of the integers), through ctypes; math.lgamma
    where no C library can be loaded."""
    global _LGAMMA
    if _LGAMMA is None:
        try:
            import ctypes
            import ctypes.util

            libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
            fn = libm.lgamma
            fn.restype = ctypes.c_double
            fn.argtypes = [ctypes.c_double]
            _LGAMMA = fn if abs(fn(11.0) - math.lgamma(11.0)) < 1e-9 else None  # log(10!)
        except (OSError, AttributeError):
            _LGAMMA = None
        if _LGAMMA is None:
            _LGAMMA = math.lgamma
    return _LGAMMA


def _poisson_one(lam: float, uniform: Any) -> float:
    if lam >= 10:
        slam = math.sqrt(lam)
        loglam = math.log(lam) if lam < math.inf else math.inf
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = uniform() - 0.5
            v = uniform()
            us = 0.5 - abs(u)
            slope = 2 * a / us if us else math.inf  # a > 0 here; C's division by zero is inf
            x = (slope + b) * u + lam + 0.43
            k = math.floor(x) if math.isfinite(x) and abs(x) < 2.0**63 else -(1 << 63)
            if us >= 0.07 and v <= vr:
                return float(k)
            if k < 0 or (us < 0.013 and v > us):
                continue
            left = (math.log(v) if v > 0 else -math.inf) + math.log(invalpha)
            left -= math.log(a / (us * us) + b)
            if left <= -lam + k * loglam - _libm_lgamma()(k + 1.0):
                return float(k)
    if lam == 0:
        return 0.0
    enlam = math.exp(-lam)
    x = 0
    prod = 1.0
    while True:
        prod *= uniform()
        if prod > enlam:
            x += 1
        else:
            return float(x)


def bernoulli_(
    size: Any,
    p: Any = 0.5,
    *,
    dtype: Any = "float32",
    generator: Generator | None = None,
    strides: Sequence[int] | None = None,
) -> np.ndarray:
    """torch.empty(size, dtype=dtype).bernoulli_(p), p a float or an array broadcast to size.

    A float p (and a float64 array p) compares a 53-bit uniform against p in double; a float32
    (or float16) array p compares a 24-bit float uniform against p in float.
    """
    dt = _dtype(dtype)
    shape = _shape(size)
    n = math.prod(shape)
    gen = _gen(generator)
    if not _is_tensor(p):
        p = float(p)
        if not 0.0 <= p <= 1.0:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")
        if n == 0:
            return np.empty(shape, dt.storage)
        hits = _unit_f64(gen, n) < p
        return _place(hits.astype(dt.storage), shape, strides)
    pd = _dtype(p.dtype)
    if n == 0:
        return np.empty(shape, dt.storage)
    if not np.all((p >= 0) & (p <= 1)):  # NaN too
        raise RuntimeError(
            "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
            "message be improved?  If so, please report an enhancement request to PyTorch.)"
        )
    order = fill_order(shape, strides)
    pv = np.broadcast_to(p, shape).reshape(-1)[order]
    if pd.name == "float64":
        hits = _unit_f64(gen, n) < pv
    else:
        hits = _unit_f32(gen, n) < pv.astype(np.float32)
    return _place(hits.astype(dt.storage), shape, strides)


def bernoulli(
    p: Any, *, generator: Generator | None = None, p_scalar: float | None = None
) -> np.ndarray:
    """torch.bernoulli(input): draws shaped and typed like `p`, each 1 with probability p[i];
    torch.bernoulli(input, p=0.3): pass the float as `p_scalar` (input gives shape and dtype)."""
    p = np.asarray(p)
    dt = _dtype(p.dtype)
    if p_scalar is not None:
        return bernoulli_(p.shape, float(p_scalar), dtype=dt, generator=generator)
    return bernoulli_(p.shape, p, dtype=dt, generator=generator)


def multinomial(
    probs: np.ndarray,
    num_samples: int,
    replacement: bool = False,
    *,
    generator: Generator | None = None,
    strides: Sequence[int] | None = None,
    topk: Any = None,
) -> np.ndarray:
    """torch.multinomial(probs, num_samples, replacement) for 1-D or 2-D probs (int64 result).
    Without replacement the exponentials fill a tensor laid out as `strides` (empty_like's).
    `topk(keys, k)`: the positions of a row's k largest keys in the order PyTorch's topk
    leaves equal keys (libstdc++'s nth_element and sort; only asked where equal keys reach the
    top k); without it, equal keys go in index order."""
    probs = np.asarray(probs)
    dt = _dtype(probs.dtype)
    if probs.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if dt.kind != "f":
        raise RuntimeError(
            "multinomial only supports floating-point dtypes for input, got: "
            f"{SCALAR_TYPE[dt.name]}"
        )
    num_samples = int(num_samples)
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    n_cat = probs.shape[-1]
    if not replacement and num_samples > n_cat:
        raise RuntimeError(
            "cannot sample n_sample > prob_dist.size(-1) samples without replacement"
        )
    if n_cat > 1 << 24:
        raise RuntimeError("number of categories cannot exceed 2^24")
    if n_cat == 0 and probs.size == 0 and (probs.ndim == 1 or probs.shape[0]):
        # No category to draw from (with replacement: without it, asking for any sample was
        # refused above), in PyTorch's words for each path.
        if num_samples == 1:
            raise RuntimeError(
                "aminmax(): cannot compute aminmax over an empty dimension as the operation "
                "has no identity."
            )
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    gen = _gen(generator)
    rows = probs.reshape(-1, n_cat)
    out_shape = (num_samples,) if probs.ndim == 1 else (rows.shape[0], num_samples)
    if rows.size == 0 or math.prod(out_shape) == 0:
        return np.empty(out_shape, np.int64)
    if not replacement or num_samples == 1:
        if not (np.all(rows < np.inf) and np.all(rows >= 0)):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if np.any(rows.sum(axis=1) == 0):
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        # Gumbel-top-k with exponentials: argmax/topk of p / q, q ~ Exp(1) in probs' dtype.
        q = _cast_from_double(_exponential_values(gen, rows.size, 1.0), dt)
        q = _place(q, probs.shape, strides).reshape(rows.shape)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            keys = (rows / q).astype(dt.storage)
        if num_samples == 1:
            picks = np.argmax(keys, axis=1)[:, None]
        else:
            # topk(largest, sorted): descending keys; equal keys where PyTorch's selection
            # and sort leave them (lower index first when no topk is given).
            picks = np.argsort(-keys.astype(np.float64), axis=1, kind="stable")[:, :num_samples]
            if topk is not None:
                for i, row in enumerate(keys):
                    top = row[picks[i]].astype(np.float64)
                    kth = top[-1]
                    if (np.unique(top).size < top.size) or np.count_nonzero(row == kth) > 1:
                        picks[i] = topk(row, num_samples)
        return picks.reshape(out_shape).astype(np.int64)
    acc = np.float64 if dt.name == "float64" else np.float32
    # Row after row PyTorch checks a row, then draws its samples: the first bad row stops it
    # after the rows before it have drawn theirs.
    negative = ~np.all(rows >= 0, axis=1)  # NaN too, as PyTorch checks val >= 0
    not_finite = ~np.all(np.isfinite(rows), axis=1)
    cum = np.cumsum(rows.astype(acc), axis=1, dtype=acc)  # sequential, in the accumulate type
    total = cum[:, -1]
    with np.errstate(invalid="ignore"):
        empty = ~(total > 0)
    bad = np.flatnonzero(negative | not_finite | empty)
    if bad.size:
        first = int(bad[0])
        gen.random64(first * num_samples)  # the uniforms of the rows before it
        if negative[first]:
            raise RuntimeError(
                "invalid multinomial distribution (encountering probability entry < 0)"
            )
        if not_finite[first]:
            raise RuntimeError(
                "invalid multinomial distribution "
                "(encountering probability entry = infinity or NaN)"
            )
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    cum = (cum / total[:, None]).astype(acc)
    cum[:, -1] = 1
    u = _unit_f64(gen, rows.shape[0] * num_samples).reshape(rows.shape[0], num_samples)
    return _count_below(cum.astype(np.float64), u).reshape(out_shape)


def _count_below(cum: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Row by row, searchsorted(cum[i], u[i], side='left'): how many of the row's (sorted)
    cumulative probabilities are below each uniform, for all rows at once: each row's
    probabilities and uniforms sorted together (a uniform before a probability it equals)."""
    n_rows, n_cat = cum.shape
    if n_rows <= 10_000:
        # A row at a time, its uniforms sorted first (searchsorted then walks the row once):
        # no temporaries of the row's size, and 5x faster on 10**7 categories.
        out = np.empty(u.shape, np.int64)
        for i in range(n_rows):
            order = np.argsort(u[i], kind="stable")
            out[i, order] = np.searchsorted(cum[i], u[i][order], side="left")
        return out
    step = max(1, (1 << 20) // (n_cat + u.shape[1]))  # rows a pass: bounded temporaries
    if n_rows > step:
        return np.concatenate(
            [_count_below(cum[i : i + step], u[i : i + step]) for i in range(0, n_rows, step)]
        )
    values = np.concatenate([cum, u], axis=1)
    is_cum = np.zeros(values.shape, np.int8)
    is_cum[:, :n_cat] = 1
    order = np.lexsort((is_cum, values), axis=-1)
    sorted_is_cum = np.take_along_axis(is_cum, order, axis=1)
    below = np.cumsum(sorted_is_cum, axis=1)
    where_u = sorted_is_cum == 0
    row_index = np.nonzero(where_u)[0]
    out = np.empty(u.shape, np.int64)
    out[row_index, order[where_u] - n_cat] = below[where_u]
    return out


def dropout_mask(
    size: Any,
    p: float = 0.5,
    *,
    dtype: Any = "float32",
    generator: Generator | None = None,
    strides: Sequence[int] | None = None,
) -> np.ndarray:
    """The noise F.dropout multiplies its input by in training mode: bernoulli_(1 - p) on a new
    tensor of the input's shape and dtype (laid out as `strides`, empty_like's), divided by
    (1 - p) in that dtype; p == 1 gives zeros (and draws nothing), as does p == 0 give ones."""
    p = float(p)
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    dt = _dtype(dtype)
    shape = _shape(size)
    if p == 0.0 or math.prod(shape) == 0:
        return np.ones(shape, dt.storage)
    if p == 1.0:
        return np.zeros(shape, dt.storage)
    keep = bernoulli_(shape, 1.0 - p, dtype=dt, generator=generator, strides=strides)
    return _scalar_op(keep, np.divide, 1.0 - p, dt)


def _scalar_op(x: np.ndarray, op: Any, scalar: float, dt: _DType) -> np.ndarray:
    """`x.op_(scalar)` of a float tensor, as ATen computes it: in the dtype's opmath type
    (float32 for float16 and bfloat16), rounded to the dtype; mul and div take the scalar as
    that float (their kernels' path for a scalar of a reduced float type), add takes it cast to
    the tensor's dtype first (the common dtype of its operands)."""
    if dt.name in ("float16", "bfloat16"):
        s32 = np.float32(scalar)
        if op is np.add:
            s32 = _cast_float(np.array([s32]), dt).astype(np.float32)[0]
        with np.errstate(divide="ignore"):
            out = op(x.astype(np.float32), s32)
        return _cast_float(out.astype(np.float32), dt)
    with np.errstate(divide="ignore"):
        return op(x, dt.storage.type(scalar)).astype(dt.storage)


def feature_noise_shape(shape: Sequence[int]) -> tuple[int, ...]:
    """The noise of feature (channel) dropout: one value per (sample, channel), (N, C, 1, ...)."""
    shape = _shape(shape)
    if len(shape) < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    return (shape[0], shape[1]) + (1,) * (len(shape) - 2)


# SELU's alpha * scale, the value alpha dropout gives a dropped element (before its affine map).
ALPHA_DROPOUT_ALPHA = 1.7580993408473766


def alpha_dropout_noise(
    size: Any,
    p: float,
    *,
    dtype: Any = "float32",
    generator: Generator | None = None,
    strides: Sequence[int] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(a * keep, b) such that alpha dropout is input * (a * keep) + b, keep ~ bernoulli(1 - p),
    a = 1 / sqrt((alpha**2 p + 1)(1 - p)), b = (keep - 1) * alpha * a + alpha * a * p, each step in
    the dtype as ATen's tensor operations do it. 0 < p < 1."""
    dt = _dtype(dtype)
    shape = _shape(size)
    keep = bernoulli_(shape, 1.0 - p, dtype=dt, generator=generator, strides=strides)
    alpha = ALPHA_DROPOUT_ALPHA
    a = 1.0 / math.sqrt((alpha * alpha * p + 1) * (1 - p))
    b = _scalar_op(keep, np.add, -1.0, dt)
    b = _scalar_op(b, np.multiply, alpha * a, dt)
    b = _scalar_op(b, np.add, alpha * a * p, dt)
    return _scalar_op(keep, np.multiply, a, dt), b


def dropout(
    x: np.ndarray,
    p: float = 0.5,
    training: bool = True,
    *,
    generator: Generator | None = None,
) -> tuple[np.ndarray, np.ndarray | None]:
    """F.dropout(x, p, training): (output, mask), mask None when nothing was drawn.

    PyTorch returns the input itself when p == 0, when not training or when it is empty, and
    input * 0 when p == 1 (so NaN and inf become NaN, -x becomes -0.0)."""
    x = np.asarray(x)
    p = float(p)
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0.0 or not training or x.size == 0:
        return x, None
    if p == 1.0:
        return x * x.dtype.type(0), None
    strides = tuple(st // x.itemsize for st in x.strides) if x.ndim else None
    mask = dropout_mask(
        x.shape, p, dtype=x.dtype, generator=generator, strides=dense_strides(x.shape, strides)
    )
    return (x * mask).astype(x.dtype), mask


# ---------------------------------------------------------------------------------------------
# nn.init and the default initialisation of modules
# ---------------------------------------------------------------------------------------------


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """torch.nn.init.calculate_gain."""
    linear_fns = [
        "linear",
        "conv1d",
        "conv2d",
        "conv3d",
        "conv_transpose1d",
        "conv_transpose2d",
        "conv_transpose3d",
    ]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _fans(shape: tuple[int, ...]) -> tuple[int, int]:
    if len(shape) < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    receptive = 1
    for s in shape[2:]:
        receptive *= s
    return shape[1] * receptive, shape[0] * receptive


def init_uniform_(
    size: Any,
    a: float = 0.0,
    b: float = 1.0,
    *,
    dtype: Any = "float32",
    generator: Generator | None = None,
) -> np.ndarray:
    """nn.init.uniform_(torch.empty(size), a, b)."""
    return uniform_(size, a, b, dtype=dtype, generator=generator)


def init_normal_(
    size: Any,
    mean: float = 0.0,
    std: float = 1.0,
    *,
    dtype: Any = "float32",
    generator: Generator | None = None,
) -> np.ndarray:
    """nn.init.normal_(torch.empty(size), mean, std)."""
    return normal_(size, mean, std, dtype=dtype, generator=generator)


def constant_(size: Any, val: float, *, dtype: Any = "float32") -> np.ndarray:
    """nn.init.constant_ (fill_: the value cast to the dtype)."""
    dt = _dtype(dtype)
    value = np.array([val], np.float64)
    filled = _cast_from_double(value, dt) if dt.kind == "f" else value.astype(dt.storage)
    return np.full(_shape(size), filled[0], dt.storage)


def xavier_uniform_(
    size: Any, gain: float = 1.0, *, dtype: Any = "float32", generator: Generator | None = None
) -> np.ndarray:
    shape = _shape(size)
    fan_in, fan_out = _fans(shape)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(shape, -a, a, dtype=dtype, generator=generator)


def xavier_normal_(
    size: Any, gain: float = 1.0, *, dtype: Any = "float32", generator: Generator | None = None
) -> np.ndarray:
    shape = _shape(size)
    fan_in, fan_out = _fans(shape)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(shape, 0.0, std, dtype=dtype, generator=generator)


def _kaiming_std(shape: tuple[int, ...], a: float, mode: str, nonlinearity: str) -> float:
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _fans(shape)
    fan = fan_in if mode == "fan_in" else fan_out
    gain = calculate_gain(nonlinearity, a)
    return gain / math.sqrt(fan)


def kaiming_uniform_(
    size: Any,
    a: float = 0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    *,
    dtype: Any = "float32",
    generator: Generator | None = None,
) -> np.ndarray:
    """nn.init.kaiming_uniform_; an empty shape draws nothing (PyTorch warns and returns)."""
    shape = _shape(size)
    dt = _dtype(dtype) if _complex_parts(dtype) is None else np.dtype(dtype)
    if 0 in shape:
        return np.zeros(shape, getattr(dt, "storage", dt))
    bound = math.sqrt(3.0) * _kaiming_std(shape, a, mode, nonlinearity)
    return uniform_(shape, -bound, bound, dtype=dt, generator=generator)


def kaiming_normal_(
    size: Any,
    a: float = 0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    *,
    dtype: Any = "float32",
    generator: Generator | None = None,
) -> np.ndarray:
    shape = _shape(size)
    dt = _dtype(dtype) if _complex_parts(dtype) is None else np.dtype(dtype)
    if 0 in shape:
        return np.zeros(shape, getattr(dt, "storage", dt))
    std = _kaiming_std(shape, a, mode, nonlinearity)
    return normal_(shape, 0.0, std, dtype=dt, generator=generator)


def _log_f32_rounded(x: np.ndarray) -> np.ndarray:
    """float32 log, correctly rounded via libm's double log (PyTorch uses SLEEF: 1 ulp apart)."""
    with np.errstate(divide="ignore"):
        return np.log(x.astype(np.float64)).astype(np.float32)


def trunc_normal_(
    size: Any,
    mean: float = 0.0,
    std: float = 1.0,
    a: float = -2.0,
    b: float = 2.0,
    *,
    dtype: Any = "float32",
    generator: Generator | None = None,
    strides: Sequence[int] | None = None,
) -> np.ndarray:
    """nn.init.trunc_normal_ as PyTorch 2.13 samples it: when [a, b] holds more than 30% of the
    mass, whole-tensor normal_ draws replace the out-of-range values until none is left; else
    uniform candidates on [a, b] are accepted against the normal density.

    `strides`: the tensor's layout. The first draw fills the tensor itself (a view: in its
    order, and normal_'s serial path when it is not contiguous); the later ones fill
    `empty_like` tensors, dense in the order of the tensor's strides (`dense_strides`)."""
    shape = _shape(size)
    like = dense_strides(shape, strides)
    dt = _dtype(dtype)
    gen = _gen(generator)

    def norm_cdf(x: float) -> float:
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    p = norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std)
    if math.prod(shape) == 0:
        return np.empty(shape, dt.storage)
    if p > 0.3:
        lo = float(_cast_from_double(np.array([float(a)]), dt)[0])
        hi = float(_cast_from_double(np.array([float(b)]), dt)[0])
        result = normal_(shape, mean, std, dtype=dt, generator=gen, strides=strides)
        while True:
            mask = (result < lo) | (result > hi)
            if not mask.any():
                return result
            again = normal_(shape, mean, std, dtype=dt, generator=gen, strides=like)
            result = np.where(mask, again, result)
    mode = max(a, min(mean, b))
    log_peak = -0.5 * ((mode - mean) / std) ** 2
    store = dt.storage.type

    def log_pdf(c: np.ndarray) -> np.ndarray:
        # candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak), in the dtype
        c = (c - store(mean)).astype(dt.storage)
        c = (c / store(std)).astype(dt.storage)
        c = (c * c).astype(dt.storage)
        c = (c * store(-0.5)).astype(dt.storage)
        return (c - store(log_peak)).astype(dt.storage)

    def log_uniform() -> np.ndarray:
        u = uniform_(shape, dtype=dt, generator=gen, strides=like)
        if dt.name == "float64":
            return _libm_log(u)
        return _log_f32_rounded(u.astype(np.float32)).astype(dt.storage)

    result = uniform_(shape, a, b, dtype=dt, generator=gen, strides=strides)
    pending = log_uniform() > log_pdf(result)
    while pending.any():
        candidates = uniform_(shape, a, b, dtype=dt, generator=gen, strides=like)
        result = np.where(pending, candidates, result)
        pending = np.where(pending, log_uniform() > log_pdf(candidates), pending)
    return result


def orthogonal_(
    size: Any,
    gain: float = 1.0,
    *,
    dtype: Any = "float32",
    generator: Generator | None = None,
    note: Any = None,
) -> np.ndarray:
    """nn.init.orthogonal_: Q of the QR decomposition of a (rows, cols) normal matrix, signed by
    diag(R), transposed back when rows < cols, times gain.

    The normal matrix is PyTorch's to the bit; Q is not: PyTorch factors it with MKL's LAPACK
    (in float32 for float32), NumPy with its own, and their Householder updates round in other
    orders, so Q differs by a few eps of its largest entry for small matrices and up to about
    100 at 32 x 32 (benchmarks/orthogonal_vs_torch.py). The factorisation here runs in float64
    and is rounded once to the dtype: a float32 Q within 0.2 eps of the float64 one, where
    PyTorch's own float32 Q is up to 67 eps from it. `note(rows, cols, dtype name)`, if given,
    is called when a matrix of more than one row and column takes that road."""
    shape = _shape(size)
    dt = _dtype(dtype)
    if len(shape) < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    n = math.prod(shape)
    if n == 0:
        return np.empty(shape, dt.storage)
    rows = shape[0]
    cols = n // rows
    drawn = normal_((rows, cols), 0.0, 1.0, dtype=dt, generator=generator)
    if rows < cols:
        drawn = drawn.T
    mkl = (
        _orthogonal_mkl(np.ascontiguousarray(drawn)) if dt.name in ("float32", "float64") else None
    )
    if mkl is not None:
        out = (mkl.T if rows < cols else mkl).reshape(shape)
    else:
        if note is not None and dt.name in ("float32", "float64") and min(rows, cols) > 1:
            note(rows, cols, dt.name)  # (not MKL's order: the caller says so)
        q, r = np.linalg.qr(drawn.astype(np.float64))
        q = q * np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        out = _cast_from_double(np.ascontiguousarray(q), dt).reshape(shape)
    if gain != 1:
        out = (out * dt.storage.type(gain)).astype(dt.storage)
    return out


def _orthogonal_mkl(flat: np.ndarray) -> np.ndarray | None:
    """On the avx2 kernel family, Q signed by diag(R) as PyTorch's MKL gives it on this
    processor (`core.mklgels.qr`: float32 tall matrices up to 32 columns, see there), or None
    (the caller factors in float64)."""
    from ..core.cpu import mkl_avx2
    from ..core.mklgels import qr

    if not mkl_avx2():
        return None
    got = qr(flat, "reduced")
    if got is None:
        return None
    q, r = got
    return np.ascontiguousarray(q * np.sign(np.diag(r)))


def sparse_(
    size: Any,
    sparsity: float,
    std: float = 0.01,
    *,
    dtype: Any = "float32",
    generator: Generator | None = None,
    perm_generator: Generator | None = None,
    strides: Sequence[int] | None = None,
) -> np.ndarray:
    """nn.init.sparse_: normal_(0, std) from `generator` (into the tensor itself, laid out as
    `strides`), then for each column the first ceil(sparsity * rows) rows of a randperm(rows)
    zeroed. PyTorch draws those permutations from the default generator whatever `generator`
    is: `perm_generator` (None: the default)."""
    shape = _shape(size)
    if len(shape) != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = shape
    num_zeros = math.ceil(sparsity * rows)
    out = normal_(shape, 0.0, std, dtype=dtype, generator=generator, strides=strides)
    for col in range(cols):
        zero_rows = randperm(rows, generator=perm_generator).tolist()[:num_zeros]
        out[zero_rows, col] = 0
    return out


def init_linear(
    gen: Generator | None,
    in_features: int,
    out_features: int,
    bias: bool = True,
    dtype: Any = "float32",
) -> tuple[np.ndarray, np.ndarray | None]:
    """nn.Linear(in_features, out_features, bias).reset_parameters(): (weight, bias).

    weight (out, in): kaiming_uniform_(a=sqrt(5)), i.e. U(-1/sqrt(in), 1/sqrt(in)) up to rounding;
    bias: U(-1/sqrt(in), 1/sqrt(in)). An empty weight draws nothing (PyTorch leaves it as
    torch.empty left it; zeros here)."""
    gen = _gen(gen)
    shape = (int(out_features), int(in_features))
    weight = kaiming_uniform_(shape, a=math.sqrt(5), dtype=dtype, generator=gen)
    b = None
    if bias:
        fan_in = shape[1]
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        b = uniform_((shape[0],), -bound, bound, dtype=dtype, generator=gen)
    return weight, b


def init_bilinear(
    gen: Generator | None,
    in1_features: int,
    in2_features: int,
    out_features: int,
    bias: bool = True,
    dtype: Any = "float32",
) -> tuple[np.ndarray, np.ndarray | None]:
    """nn.Bilinear: weight (out, in1, in2) and bias (out) ~ U(-1/sqrt(in1), 1/sqrt(in1))."""
    gen = _gen(gen)
    if in1_features <= 0:
        raise ValueError(f"in1_features must be > 0, but got (in1_features={in1_features})")
    bound = 1 / math.sqrt(in1_features)
    shape = (int(out_features), int(in1_features), int(in2_features))
    weight = uniform_(shape, -bound, bound, dtype=dtype, generator=gen)
    b = uniform_((shape[0],), -bound, bound, dtype=dtype, generator=gen) if bias else None
    return weight, b


def init_conv(
    gen: Generator | None,
    in_channels: int,
    out_channels: int,
    kernel_size: int | Sequence[int],
    *,
    groups: int = 1,
    bias: bool = True,
    transposed: bool = False,
    dims: int = 2,
    dtype: Any = "float32",
) -> tuple[np.ndarray, np.ndarray | None]:
    """nn.Conv{dims}d (or ConvTranspose{dims}d with transposed=True): (weight, bias).

    weight is (out, in / groups, *k), or (in, out / groups, *k) when transposed, drawn with
    kaiming_uniform_(a=sqrt(5)); bias (out) ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in)) where fan_in is
    weight.size(1) * prod(k)."""
    gen = _gen(gen)
    if isinstance(kernel_size, (int, np.integer)):
        ks = (int(kernel_size),) * dims
    else:
        ks = tuple(int(k) for k in kernel_size)
    if in_channels % groups or out_channels % groups:
        raise ValueError("in_channels and out_channels must be divisible by groups")
    if transposed:
        shape = (in_channels, out_channels // groups, *ks)
    else:
        shape = (out_channels, in_channels // groups, *ks)
    weight = kaiming_uniform_(shape, a=math.sqrt(5), dtype=dtype, generator=gen)
    b = None
    if bias:
        fan_in, _ = _fans(shape)
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        b = uniform_((out_channels,), -bound, bound, dtype=dtype, generator=gen)
    return weight, b


def init_embedding(
    gen: Generator | None,
    num_embeddings: int,
    embedding_dim: int,
    padding_idx: int | None = None,
    dtype: Any = "float32",
) -> np.ndarray:
    """nn.Embedding: weight ~ N(0, 1), the padding_idx row zeroed."""
    weight = normal_((num_embeddings, embedding_dim), dtype=dtype, generator=_gen(gen))
    if padding_idx is not None:
        if padding_idx < 0:
            padding_idx += num_embeddings
        weight[padding_idx] = 0
    return weight


def init_layer_norm(
    normalized_shape: Any,
    elementwise_affine: bool = True,
    bias: bool = True,
    dtype: Any = "float32",
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """nn.LayerNorm: weight ones, bias zeros (no random numbers are drawn)."""
    if not elementwise_affine:
        return None, None
    shape = _shape(normalized_shape)
    dt = _dtype(dtype)
    return np.ones(shape, dt.storage), (np.zeros(shape, dt.storage) if bias else None)


_GATES = {"RNN": 1, "RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def init_rnn(
    gen: Generator | None,
    mode: str,
    input_size: int,
    hidden_size: int,
    num_layers: int = 1,
    bias: bool = True,
    bidirectional: bool = False,
    proj_size: int = 0,
    dtype: Any = "float32",
) -> list[tuple[str, np.ndarray]]:
    """nn.RNN / nn.LSTM / nn.GRU: every parameter ~ U(-1/sqrt(hidden), 1/sqrt(hidden)), drawn in
    registration order (per layer and direction: weight_ih, weight_hh, bias_ih, bias_hh,
    weight_hr). Returns (name, array) pairs in that order."""
    gen = _gen(gen)
    gates = _GATES[mode.upper()] * hidden_size
    stdv = 1.0 / math.sqrt(hidden_size) if hidden_size > 0 else 0
    real_hidden = proj_size if proj_size > 0 else hidden_size
    directions = 2 if bidirectional else 1
    params: list[tuple[str, np.ndarray]] = []
    for layer in range(num_layers):
        for direction in range(directions):
            layer_input = input_size if layer == 0 else real_hidden * directions
            suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
            shapes = [("weight_ih", (gates, layer_input)), ("weight_hh", (gates, real_hidden))]
            if bias:
                shapes += [("bias_ih", (gates,)), ("bias_hh", (gates,))]
            if proj_size > 0:
                shapes += [("weight_hr", (proj_size, hidden_size))]
            for name, shape in shapes:
                params.append(
                    (name + suffix, uniform_(shape, -stdv, stdv, dtype=dtype, generator=gen))
                )
    return params


def init_rnn_cell(
    gen: Generator | None,
    mode: str,
    input_size: int,
    hidden_size: int,
    bias: bool = True,
    dtype: Any = "float32",
) -> list[tuple[str, np.ndarray]]:
    """nn.RNNCell / nn.LSTMCell / nn.GRUCell: weight_ih, weight_hh, bias_ih, bias_hh, in order,
    each ~ U(-1/sqrt(hidden), 1/sqrt(hidden))."""
    gen = _gen(gen)
    gates = _GATES[mode.upper()] * hidden_size
    stdv = 1.0 / math.sqrt(hidden_size) if hidden_size > 0 else 0
    shapes = [("weight_ih", (gates, input_size)), ("weight_hh", (gates, hidden_size))]
    if bias:
        shapes += [("bias_ih", (gates,)), ("bias_hh", (gates,))]
    return [(n, uniform_(s, -stdv, stdv, dtype=dtype, generator=gen)) for n, s in shapes]
