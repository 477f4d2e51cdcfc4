"""Float32 chains of fused multiply-adds (`linalg._fma_chain`: acc = fma(x[:, k], y[k], acc) in
the order of k, from zero, each element on its own) computed by NumPy's BLAS where this machine's
BLAS is proven, in this process, to compute exactly that chain; the emulation elsewhere.

Why it can be. MKL's sgemm (PyTorch's) adds each block of at most 384 inner products as such a
chain (see `linalg._k_blocks`); gradcli emulates it with three NumPy calls a k, a thousand times
slower than a BLAS call. OpenBLAS's sgemm (NumPy's) packs the operands and runs a kernel that
keeps each element of a tile in a register and fuses the products into it in the order of k,
from zero, as long as it does not cut the inner size in its own blocks (GEMM_Q: 448 for float32
on SkylakeX) and does not take one of its small-matrix or "direct" kernels (which it picks for
small shapes and for row-major operands not transposed). Measured on OpenBLAS 0.3.31 (NumPy
2.4's wheel, DYNAMIC_ARCH, SkylakeX core), one and two threads, random values of spread
exponents against the emulation (`tests/surface/data/sgemm/blas_probe.py`): with the first
operand transposed in memory (x.T row-major), the second and the result row-major, all of
about 2,500 shapes (rows and columns 2 to 600, inner sizes 1 to 448, each 64-byte aligned and
4 and 12 bytes off) were the chain, bit for bit; with the first operand row-major, about half
of the shapes were not (small ones, and with the second transposed many with few columns);
past 448 inner sizes (OpenBLAS's own block), many were not in any layout.

Why it is safe on another machine. OpenBLAS picks its kernels at run time by the CPU, and
another build or another BLAS may sum in another order; so nothing is assumed: a product is
computed by BLAS only in a class of calls that has been compared, element for element, with
the emulation in this process (`_verify`), and the class is everything OpenBLAS's choice of path
can depend on:
- the sizes m, k, n (the kernels, the blocking and the edge tiles follow from them);
- the layouts, strides and leading dimensions: fixed here, each operand copied into a
  contiguous buffer (x transposed, y and the result row-major), so they follow from the sizes;
- the alignment of the three buffers: each 64-byte aligned (`_product`), so always the same;
- alpha 1 and beta 0 (NumPy's matmul passes nothing else; no result is shared with an operand:
  NumPy's syrk path for `a @ a.T` on one buffer cannot be taken);
- the number of OpenBLAS threads (with more threads OpenBLAS splits the result and may give up
  its direct kernel) and the core it runs on: read from OpenBLAS at every product (`_state`),
  so that a change (threadpoolctl, openblas_set_num_threads) starts a new class; where the BLAS
  cannot be asked (not NumPy's OpenBLAS), the environment variables that set its threads;
- the floating-point environment (rounding mode, flush-to-zero) is not read: gradcli never
  changes it, and the emulation's NumPy arithmetic would follow it too.
The values do not choose the path (no data-dependent branch in a gemm kernel), so a class
proven on values whose sums show their order (random signs and mantissas, magnitudes 2^-4 to
2^5, several products for small shapes: at least `_SAMPLE` elements compared) is
proven for every value; NaN and infinities propagate through the same fused steps.

A large product is cut into tiles of rows and columns (each element's chain is its own, so a
tile's elements are the product's), at most `_TILE_WORK` multiply-adds each and of at most two
sizes along each axis, so that proving a class never costs more than emulating one tile. A
tile whose class is not proven is emulated."""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np

from ..core import hooks

MAX_K = 384  # the longest chain one BLAS call is asked for (MKL's blocks are at most this)
_TILE_WORK = 1 << 20  # multiply-adds of a tile, so the emulation that proves its class
_SAMPLE = 256  # elements a proof compares at least (several products of a small shape)
_MAX_REPS = 8
_MAX_CLASSES = 4096  # verdicts kept; past that, cleared (they are found again)
_ALIGN = 64
_F32 = np.dtype(np.float32)

Emulate = Callable[[np.ndarray, np.ndarray], np.ndarray]

_verdicts: dict[tuple, bool] = {}
_blas: list = []  # [the OpenBLAS library through ctypes, or None], read at the first product


def _state() -> tuple:
    """What besides the shape can change OpenBLAS's path: its core and its threads now."""
    if not _blas:
        _blas.append(_open_blas())
    lib = _blas[0]
    if lib is None:
        env = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")
        return ("?", os.cpu_count()) + tuple(os.environ.get(v) for v in env)
    get_threads, corename = lib
    return (corename, int(get_threads()))


def _open_blas() -> tuple | None:
    """NumPy's bundled OpenBLAS (the wheel's numpy.libs), its thread count as a function and
    its core's name; None when NumPy's BLAS is not such a library."""
    try:
        import ctypes
        import glob

        root = os.path.dirname(os.path.dirname(np.__file__))
        for path in sorted(glob.glob(os.path.join(root, "numpy.libs", "libscipy_openblas*"))):
            lib = ctypes.CDLL(path)
            for suffix in ("64_", ""):
                threads = getattr(lib, f"scipy_openblas_get_num_threads{suffix}", None)
                core = getattr(lib, f"scipy_openblas_get_corename{suffix}", None)
                if threads is not None and core is not None:
                    threads.restype = ctypes.c_int
                    core.restype = ctypes.c_char_p
                    return (threads, core().decode("ascii", "replace"))
    except (OSError, AttributeError, ValueError):
        pass
    return None


def _aligned(n: int) -> np.ndarray:
    """A fresh float32 array of n elements whose first one is 64-byte aligned."""
    buf = np.empty(n + _ALIGN // 4, np.float32)
    off = (-buf.ctypes.data % _ALIGN) // 4
    return buf[off : off + n]


_LINE = _ALIGN // 4  # float32 elements in 64 bytes
_SCRATCH_MAX = 1 << 20  # elements of the buffer kept for the operands of small products
_scratch: list[np.ndarray] = []  # the kept buffer, out of the list while a product uses it


def _product(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x @ y by one BLAS call in the fixed layout: x (m, k) copied transposed, y (k, n) and the
    result row-major, all three 64-byte aligned: in one buffer, each part padded to whole
    lines, kept between products up to `_SCRATCH_MAX` elements (finding an address costs more
    than a small product) and taken out of `_scratch` while in use (a product in another
    thread makes its own); the result copied out."""
    (m, k), n = x.shape, y.shape[1]
    ly = -(-(k * m) // _LINE) * _LINE
    lo = ly + -(-(k * n) // _LINE) * _LINE
    need = lo + m * n
    try:
        ws = _scratch.pop()
    except IndexError:
        ws = None
    if ws is None or ws.size < need:
        ws = _aligned(max(need, 4096))
    xt = ws[: k * m].reshape(k, m)
    xt[...] = x.T
    yc = ws[ly : ly + k * n].reshape(k, n)
    yc[...] = y
    out = ws[lo:need].reshape(m, n)
    with np.errstate(all="ignore"):
        np.matmul(xt.T, yc, out=out)
    result = out.copy()
    if ws.size <= _SCRATCH_MAX and not _scratch:
        _scratch.append(ws)
    return result


def _probe_values(seed: int, count: int) -> np.ndarray:
    """`count` float32 values whose sums show their order: random signs and mantissas, exponents
    -4 to 4, from a hash of the seed and their index (splitmix64: importing `numpy.random`
    would cost start-up time)."""
    z = np.arange(count, dtype=np.uint64) + np.uint64((seed << 40) % (1 << 64))
    z = z * np.uint64(0x9E3779B97F4A7C15) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    sign = (z >> np.uint64(63)) << np.uint64(31)
    exponent = (np.uint64(123) + (z >> np.uint64(32)) % np.uint64(9)) << np.uint64(23)
    bits = sign | exponent | (z & np.uint64(0x7FFFFF))
    return bits.astype(np.uint32).view(np.float32)


def _verify(m: int, k: int, n: int, emulate: Emulate) -> bool:
    """Whether BLAS gives the emulation's bits for products of this shape, on values seeded by
    the shape, every element compared. A small shape is tried on several products (at least
    `_SAMPLE` elements), emulated at once: the diagonal blocks of the stacked operands' product
    (the emulation's cost is its passes over k, not the size of a pass)."""
    reps = min(_MAX_REPS, -(-_SAMPLE // (m * n)))
    x = _probe_values(2 * (m * 1000003 + n), reps * m * k).reshape(reps * m, k)
    y = _probe_values(2 * (m * 1000003 + n) + 1, k * reps * n).reshape(k, reps * n)
    want = emulate(x, y)
    for r in range(reps):
        xr, yr = x[r * m : (r + 1) * m], y[:, r * n : (r + 1) * n]
        if not np.array_equal(_product(xr, yr), want[r * m : (r + 1) * m, r * n : (r + 1) * n]):
            return False
    return True


def proven(m: int, k: int, n: int, emulate: Emulate) -> bool:
    """Whether products of this shape are BLAS's in this process (proved at the first one)."""
    if m < 2 or n < 2 or not 1 <= k <= MAX_K:
        return False
    key = (m, k, n, _state())
    ok = _verdicts.get(key)
    if ok is None:
        ok = _verify(m, k, n, emulate)
        if len(_verdicts) >= _MAX_CLASSES:
            _verdicts.clear()
        _verdicts[key] = ok
    return ok


def _cuts(size: int, parts: int) -> list[tuple[int, int]]:
    """`size` in `parts` ranges whose lengths differ by at most one."""
    q, r = divmod(size, parts)
    out, lo = [], 0
    for i in range(parts):
        hi = lo + q + (i < r)
        out.append((lo, hi))
        lo = hi
    return out


def _tiles(m: int, k: int, n: int) -> tuple[list, list]:
    """Row and column ranges of tiles of at most `_TILE_WORK` multiply-adds (the longer side
    cut in more parts until they fit, each part at least 2 long)."""
    pr = pc = 1
    while -(-m // pr) * -(-n // pc) * k > _TILE_WORK:
        if -(-m // pr) >= -(-n // pc) and m // (pr + 1) >= 2:
            pr += 1
        elif n // (pc + 1) >= 2:
            pc += 1
        elif m // (pr + 1) >= 2:
            pr += 1
        else:
            break
    return _cuts(m, pr), _cuts(n, pc)


def _classes(m: int, k: int, n: int) -> set[tuple[int, int, int]]:
    rows, cols = _tiles(m, k, n)
    return {(hi - lo, k, ch - cl) for lo, hi in rows for cl, ch in cols}


def all_proven(m: int, ks: list[int], n: int, emulate: Emulate) -> bool:
    """Whether every tile of products (m, k, n), k in `ks`, is BLAS's (proving the classes
    not yet seen): a product too large to emulate may then be mirrored."""
    return all(proven(*c, emulate) for k in set(ks) for c in _classes(m, k, n))


def chain(x: np.ndarray, y: np.ndarray, emulate: Emulate) -> np.ndarray | None:
    """`emulate(x, y)`'s bits (float32 x (m, k), y (k, n)), BLAS computing the tiles whose
    class is proven and `emulate` the others; None for a shape BLAS is not tried on (and for
    operands that are not float32: the copies would round them)."""
    (m, k), n = x.shape, y.shape[1]
    if m < 2 or n < 2 or not 1 <= k <= MAX_K or x.dtype != _F32 or y.dtype != _F32:
        return None
    if m * n * k <= _TILE_WORK:
        return _product(x, y) if proven(m, k, n, emulate) else emulate(x, y)
    rows, cols = _tiles(m, k, n)
    out = np.empty((m, n), np.float32)
    for lo, hi in rows:
        xs = x[lo:hi]
        for cl, ch in cols:
            hooks.observer.check_clock()
            if proven(hi - lo, k, ch - cl, emulate):
                out[lo:hi, cl:ch] = _product(xs, y[:, cl:ch])
            else:
                out[lo:hi, cl:ch] = emulate(xs, y[:, cl:ch])
    return out
