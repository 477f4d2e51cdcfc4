"""Float32 matrix products as PyTorch 2.13 computes them on an AVX2 processor without AVX-512
(the ``avx2`` kernel family, `core.cpu`): MKL's sgemm there, one thread, as measured on an AMD
EPYC (Zen 3). The ``avx512`` family's orders are in `linalg` (`_mm_float32` and its kin).

What was measured (PyTorch 2.13 on that machine, `torch.set_num_threads(1)`; first inputs whose
partial sums cancel, a * b = +-2^40 at two places and ones elsewhere, so that the result counts
the products added after the two met; then random values, signs and mantissas with exponents
-4 to 4, every element of each product compared bit for bit):

- C = A @ B with B row-major and A row-major or transposed (column-major): `a @ b`,
  `grad @ w` and `grad.t() @ x` of nn.Linear's backward. Two kernels, by the shape:

  * 4 rows or more and 12 columns or more: each element a chain of fused multiply-adds in the
    order of k, from zero, in blocks of the inner size (`_k_blocks`: whole up to 192; 193 to
    384 in two halves of its even part, an odd last product a block of its own; past 384,
    blocks of 192), the blocks' sums added in order. With a bias (addmm, F.linear: MKL's beta
    = 1) the bias is the first term: ((b + s0) + s1) + ...

  * fewer rows or columns: each product rounded, then added in the order of k, from zero (or
    from the bias), no fused steps; except the leading elements of an output row that MKL
    peels off until the row's address is 16-byte aligned (the output is PyTorch's own, its
    rows n floats apart from an aligned start: row i peels (-i n) mod 4 elements), when four
    elements or more of the row are left after them: those are added as
    A = (A + p0 + p1 + p2 + p3) + (p4 + p5 + p6 + p7) for each 8 products, then one by one.
    (Measured: rows 1 to 12, columns 2 to 11, 16 inner sizes 1 to 192, and inner sizes to
    1,000 elsewhere; every element equal.) A single column is gemv's (below).

- C = A @ W.t() (W row-major: nn.Linear's forward and F.linear) with A row-major: 4 rows or
  more and 12 columns or more, the same blocked chains (and bias). With fewer rows or columns
  (2 rows or more and 2 columns or more), a kernel of dot products (`_dots`) whose split of
  the inner size depends on the address of A's row (PyTorch's rows are k floats apart from
  an aligned start) and on the column (a last group of fewer than four columns takes 8
  lanes, the others 4); the bias added to the product after, rounded once. (Measured:
  random shapes, rows 2 to 40, columns 2 to 80, inner sizes 1 to 300, every element equal;
  A a view starting 1 to 3 rows into its array, `h[1:] @ w.t()`: its storage offset counts,
  144 shapes equal.)

- One row or one column of W.t() or of a vector (`x @ v`, mv, nn.Linear(k, 1), a single
  sample): MKL's gemv (`_gemv`; measured: one row, 1 to 100 columns, inner sizes 1 to
  1,000; one column, rows 1 to 16; every element equal). A view that starts off a 16-byte
  boundary (`h[i] @ w.t()`, `h[1:] @ v`) splits otherwise in places, not modelled: computed
  as if aligned, which agreed for 188 of 210 one-row views (all where the columns are a
  multiple of 4) and 83 of 126 matrix-vector views (the avx512 family's order: 31 and 10).
  One row times a row-major matrix (`v @ a`, also of one column) and a transposed matrix
  times a vector (`a.t() @ v`, measured: rows 2 to 64, inner sizes 1 to 300) are the small
  kernel above.

Both operands transposed: as the row-major product for inner sizes up to 7 (measured), else
not measured. Row-strided operands (`x[:, t]` of a (m, s, k) tensor, a column range `h[:, a:b]`):
MKL reads them in place, rows a leading dimension apart, in the contiguous operand's orders
(measured: rows 1 to 40, inner sizes 1 to 200, columns 2 to 40; `x @ w`, `x @ w.t()`, addmm,
`g.t() @ x`: 1,396 of 1,500 products equal, 1,143 before); a single column of them (gemv with
a leading dimension) and a transposed row-strided operand are not measured: None."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ..core import hooks

_F32 = np.dtype(np.float32)
_KC = 192  # MKL's block of the inner size on this family
_MIN_ROWS = 4  # the chain kernel's least rows ...
_MIN_COLS = 12  # ... and columns
_ALIGN = 4  # floats in 16 bytes: the small kernel peels an output row to this alignment


def _k_blocks(k: int) -> list[tuple[int, int]]:
    """The ranges of the inner size the chain kernel sums apart (see the module's docstring)."""
    if k <= _KC:
        return [(0, k)]
    if k <= 2 * _KC:
        even = k - k % 2
        half = even // 2
        out = [(0, half), (half, even)]
        if k % 2:
            out.append((even, k))
        return out
    return [(lo, min(lo + _KC, k)) for lo in range(0, k, _KC)]


def _layout(x: np.ndarray, y: np.ndarray) -> str | None:
    """ "nn" (y row-major; x row-major or column-major: the same kernels), "nt" (x row-major,
    y column-major: `x @ w.t()`), None for the layouts not measured."""
    if y.flags.c_contiguous and (x.flags.c_contiguous or x.T.flags.c_contiguous):
        return "nn"
    if x.flags.c_contiguous and y.T.flags.c_contiguous:
        return "nt"
    return None


def _leading(a: np.ndarray) -> bool:
    """A row-major matrix whose rows lie further apart than its width (a slice `x[:, t]` of a
    (m, s, k) tensor, `h[:, :k]`): ATen hands MKL such an operand as it is, its rows a
    leading dimension apart, rather than a contiguous copy."""
    st, size = a.strides, a.itemsize
    return st[1] == size and st[0] % size == 0 and st[0] >= a.shape[1] * size


def _strided_layout(x: np.ndarray, y: np.ndarray) -> str | None:
    """`_layout` with row-strided operands (`_leading`) where no fused order depends on where
    their rows lie: y's of "nn", x's of both; None for the rest (gemv with a leading
    dimension is not measured)."""
    if y.shape[1] == 1:
        return None
    if (y.flags.c_contiguous or _leading(y)) and (
        x.flags.c_contiguous or x.T.flags.c_contiguous or _leading(x)
    ):
        return "nn"
    if (x.flags.c_contiguous or _leading(x)) and y.T.flags.c_contiguous:
        return "nt"
    return None


def mm(
    x: np.ndarray,
    y: np.ndarray,
    bias: np.ndarray | None = None,
    out_at: int = 0,
    x_at: int | None = None,
    out_ld: int | None = None,
    x_ld: int | None = None,
) -> np.ndarray | None:
    """x @ y (+ bias, broadcast to the result, as addmm's beta = 1) of float32 matrices in the
    avx2 family's order; None where it is not modelled (see the module's docstring). `out_at`,
    `x_at`: the floats between an aligned start and the result's and x's first elements (a
    matrix of a batch: bmm's b m n and b m k), which the small kernels' splits follow; x's
    by default where x lies in the array it is a view of (`storage_offset`: `h[1:] @ w.t()`
    splits its rows as PyTorch's view does); `out_ld`, `x_ld`: the floats between the
    result's and x's rows where the caller's buffers are wider than them (default: n, k)."""
    if x.ndim != 2 or y.ndim != 2 or x.dtype != _F32 or y.dtype != _F32:
        return None
    (m, k), n = x.shape, y.shape[1]
    if y.shape[0] != k or m == 0 or n == 0 or k == 0:
        return None
    layout = _layout(x, y)
    if n == 1 and x.flags.c_contiguous and (m > 1 or y.strides[1] != y.itemsize):
        # one column: x times a vector (y's layouts are one), gemv; but one row times a
        # column that is a matrix's own (steps of one float both ways, not `w.t()`): the small
        # kernel (measured)
        layout = "nt"
    if layout is None and k <= 7 and m >= 2 and n >= 2 and x.T.flags.c_contiguous:
        if y.T.flags.c_contiguous:
            # both column-major (LAPACK's factors: `Q @ R`): PyTorch 2.13's bits here are the
            # row-major product's for inner sizes up to 7 (7,616 shapes measured, 2 to 100 rows
            # and columns); from 8 on they differ (not modelled)
            y = np.ascontiguousarray(y)
            layout = "nn"
    if layout is None:
        layout = _strided_layout(x, y)
        if layout is None:
            return None
        if x_ld is None and not x.flags.c_contiguous and _leading(x):
            x_ld = x.strides[0] // x.itemsize  # (the dot kernel's rows: x's own steps)
    start = None
    if bias is not None:
        if bias.dtype != _F32:
            return None
        try:
            start = np.broadcast_to(bias, (m, n)).astype(_F32)
        except ValueError:
            return None
    chain = m >= _MIN_ROWS and n >= _MIN_COLS
    with np.errstate(all="ignore"):
        if chain:
            # (past the work the emulation affords: the other family's path, NumPy's BLAS)
            return _blocked_chains(x, y, start) if _affordable(x, y) else None
        if layout == "nn":
            return _small(x, y, start, out_at, out_ld)
        if m == 1 or n == 1:
            out = _gemv(x, y.T)
        else:
            out = _dots(x, y.T, storage_offset(x) if x_at is None else x_at, x_ld)
        return out if start is None else out + start


def mm_batch(xs: np.ndarray, ys: np.ndarray) -> np.ndarray | None:
    """bmm's float32 products xs[b] @ ys[b] (xs (batch, m, k), ys (batch, k, n), views whose
    matrices share one layout) where each is `mm`'s blocked chains, emulated: every matrix's
    blocks at once (`linalg._fma_chains`), in bits each matrix's `mm`; None elsewhere (each
    matrix by `mm`: other kernels, BLAS where it is proven, past the work the emulation
    affords in one piece)."""
    from . import blas32

    linalg = _linalg()
    count, (m, k), n = xs.shape[0], xs.shape[1:], ys.shape[2]
    if xs.dtype != _F32 or ys.dtype != _F32 or m < _MIN_ROWS or n < _MIN_COLS or k == 0:
        return None
    if _layout(xs[0], ys[0]) is None or count * m * k * n > linalg._FMA_MAX_WORK:
        return None
    blocks = _k_blocks(k)
    if blas32.all_proven(m, [hi - lo for lo, hi in blocks], n, linalg._fma_chain_emulated):
        return None
    with np.errstate(all="ignore"):
        parts = linalg._fma_chains(xs, ys, blocks)
        acc = parts[:, 0]
        for b in range(1, len(blocks)):
            acc = acc + parts[:, b]
    return acc


def bias_after(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether `mm(x, y, bias)` is `mm(x, y) + bias` (one rounding after the product: the dot
    and gemv kernels, `x @ w.t()` with fewer than 4 rows or 12 columns), as `mm` decides."""
    if x.ndim != 2 or y.ndim != 2 or x.dtype != _F32 or y.dtype != _F32:
        return False
    (m, k), n = x.shape, y.shape[1]
    if y.shape[0] != k or m == 0 or n == 0 or k == 0 or (m >= _MIN_ROWS and n >= _MIN_COLS):
        return False
    layout = _layout(x, y)
    if n == 1 and x.flags.c_contiguous and (m > 1 or y.strides[1] != y.itemsize):
        layout = "nt"
    return (layout or _strided_layout(x, y)) == "nt"


def _affordable(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether the blocked chains of x @ y cost what the avx512 family's do: emulated up to
    `linalg._FMA_MAX_WORK` multiply-adds, past it only where this machine's BLAS is proven to
    compute every block's chain (`blas32`), up to `linalg._BLAS_MAX_WORK`."""
    from . import blas32

    linalg = _linalg()
    (m, k), n = x.shape, y.shape[1]
    if m * k * n <= linalg._FMA_MAX_WORK:
        return True
    if m * k * n > linalg._BLAS_MAX_WORK:
        return False
    ks = [hi - lo for lo, hi in _k_blocks(k)]
    return blas32.all_proven(m, ks, n, linalg._fma_chain_emulated)


def _linalg() -> Any:
    """`linalg`, whose float32 chain kernels (the avx512 family's) the blocked chains share.
    Only linalg calls this module, so it is loaded; not imported here, as it imports this."""
    return sys.modules[__name__.rpartition(".")[0] + ".linalg"]


def _blocked_chains(x: np.ndarray, y: np.ndarray, acc: np.ndarray | None) -> np.ndarray:
    for part in _linalg()._chain_blocks(x, y, _k_blocks(x.shape[1])):
        acc = part if acc is None else acc + part
    return acc


_STEP_CHECK = 256  # products between two readings of the clock
_SMALL_AT_ONCE = 1 << 14  # products up to which `_small` forms them all at once
_PEELS: dict[tuple[int, int, int, int | None], tuple[np.ndarray, np.ndarray] | None] = {}


def _peel_plan(m: int, n: int, at: int, ld: int | None) -> tuple[np.ndarray, np.ndarray] | None:
    """The output elements `_small` peels (rows, columns), None if none: a function of the
    shape and the output's place alone, kept (a loop's products repeat their shapes)."""
    key = (m, n, at, ld)
    if key in _PEELS:
        return _PEELS[key]
    rows = np.arange(m)
    peel = np.minimum((-(at + rows * (n if ld is None else ld))) % _ALIGN, n)
    peeled = (peel > 0) & (n - peel >= _ALIGN)
    plan = None
    if peeled.any():
        ri = np.repeat(rows[peeled], peel[peeled])
        ci = np.concatenate([np.arange(p) for p in peel[peeled]])
        plan = (ri, ci)
    if len(_PEELS) > 256:
        _PEELS.clear()
    _PEELS[key] = plan
    return plan


def _small(
    x: np.ndarray, y: np.ndarray, start: np.ndarray | None, at: int = 0, ld: int | None = None
) -> np.ndarray:
    """The small kernel: rounded products added in order (the peeled elements apart; the
    output's rows `ld` floats apart, n by default, from `at` floats past an aligned start)."""
    (m, k), n = x.shape, y.shape[1]
    if m * k * n <= _SMALL_AT_ONCE:
        # every rounded product at once, (m, 1 + k, n) with the start first, summed in order
        # along k by `accumulate` (its additions are the loop's, one after another)
        terms = np.empty((m, k + 1, n), _F32)
        terms[:, 0] = 0 if start is None else start
        np.multiply(x[:, :, None], y[None], out=terms[:, 1:])
        acc = np.add.accumulate(terms, axis=1)[:, k].copy()
    else:
        acc = np.zeros((m, n), _F32) if start is None else start.copy()
        for j in range(k):
            if j % _STEP_CHECK == _STEP_CHECK - 1:
                hooks.observer.check_clock()
            acc += x[:, j, None] * y[j]
    if k < _PEEL_GROUP:
        # (no whole group of 8: a peeled element's additions, its start then each product in
        # order, are the other elements'; the plan changes nothing)
        return acc
    plan = _peel_plan(m, n, at, ld)
    if plan is None:
        return acc
    ri, ci = plan
    p = x[ri] * y[:, ci].T  # (elements, k): the rounded products
    a = np.zeros(ri.size, _F32) if start is None else start[ri, ci].copy()
    groups = k // (2 * _ALIGN)
    if ri.size * k <= _SMALL_AT_ONCE:
        # The same additions at once: per group of 8, A + p0 + p1 + p2 + p3 + B with
        # B = (p4 + 0) + p5 + p6 + p7 (the groups' B first, side by side), then the rest,
        # all in one sequence summed in order by `accumulate`
        whole = groups * 2 * _ALIGN
        g = p[:, :whole].reshape(ri.size, groups, 2 * _ALIGN)
        seq = np.empty((ri.size, 1 + groups * (_ALIGN + 1) + k - whole), _F32)
        seq[:, 0] = a
        if groups:
            body = seq[:, 1 : 1 + groups * (_ALIGN + 1)].reshape(ri.size, groups, _ALIGN + 1)
            body[:, :, :_ALIGN] = g[:, :, :_ALIGN]
            b = g[:, :, _ALIGN:].copy()
            b[:, :, 0] += np.float32(0)  # (from +0: a -0 product gives +0)
            body[:, :, _ALIGN] = np.add.accumulate(b, axis=2)[:, :, -1]
        seq[:, 1 + groups * (_ALIGN + 1) :] = p[:, whole:]
        acc[ri, ci] = np.add.accumulate(seq, axis=1)[:, -1]
        return acc
    j = 0
    while k - j >= 2 * _ALIGN:
        for q in range(j, j + _ALIGN):
            a += p[:, q]
        b = p[:, j + _ALIGN] + np.float32(0)  # (from +0: a -0 product gives +0)
        for q in range(j + _ALIGN + 1, j + 2 * _ALIGN):
            b += p[:, q]
        a += b
        j += 2 * _ALIGN
        if j % _STEP_CHECK < 2 * _ALIGN:
            hooks.observer.check_clock()
    for q in range(j, k):
        a += p[:, q]
    acc[ri, ci] = a
    return acc


_DOT_WORK = 1 << 22  # rounded products `_dots` holds at once
_GEMV_TAIL_WHOLE = 12  # inner sizes below which `_gemv`'s last outputs are summed at once
_PEEL_GROUP = 2 * _ALIGN  # inner sizes from which `_small`'s peeled elements add in groups
_HEADS_ONLY = _ALIGN  # inner sizes below which `_dots` adds each output's products in order


def _dots(x: np.ndarray, w: np.ndarray, at: int = 0, ld: int | None = None) -> np.ndarray:
    """x @ w.t() by the small dot-product kernel (x (m, k) and w (n, k) row-major; see the
    module's docstring): the products of row i up to its 16-byte alignment, q = (-i k) mod 4,
    added in order; the rest in lanes, the first lane starting from that sum, each lane's
    products added in order: four lanes (k = q + 4 v + l) reduced as (l0 + l2) + (l1 + l3)
    for the first 4 * (n // 4) columns, eight lanes reduced by halves for the last n mod 4;
    the products past the lanes' last whole vector added after, in order."""
    (m, k), n = x.shape, w.shape[0]
    if k < _HEADS_ONLY:
        # (an inner size of 1-3: no lane gets a whole vector, whatever a row's peel; every
        # output is its products added in order from zero, the head's sum and then the rest)
        p = x[:, None, :] * w[None, :, :]
        acc = p[:, :, 0] + np.float32(0)
        for j in range(1, k):
            acc += p[:, :, j]
        return acc
    out = np.empty((m, n), _F32)
    rows_at_once = max(1, _DOT_WORK // max(1, n * k))
    n4 = n - n % _ALIGN
    for q, sel in _dot_groups(m, k, at, ld):
        for lo in range(0, sel.size, rows_at_once):
            hooks.observer.check_clock()
            r = sel[lo : lo + rows_at_once]
            p = x[r][:, None, :] * w[None, :, :]  # (rows, n, k), rounded
            head = _head(p, q)
            if n4:
                out[r, :n4] = _lanes(p[:, :n4], head[:, :n4], q, 4)
            if n4 < n:
                out[r, n4:] = _lanes(p[:, n4:], head[:, n4:], q, 8)
    return out


_GROUPS: dict[tuple[int, int, int, int | None], list[tuple[int, np.ndarray]]] = {}


def _dot_groups(m: int, k: int, at: int, ld: int | None) -> list[tuple[int, np.ndarray]]:
    """`_dots`'s rows by the products their alignment peels (q, the rows), those with rows;
    a function of the shape and x's place alone, kept (a loop repeats its shapes)."""
    key = (m, k, at, ld)
    groups = _GROUPS.get(key)
    if groups is None:
        rows = np.arange(m)
        q_all = np.minimum((-(at + rows * (k if ld is None else ld))) % _ALIGN, k)
        groups = [(q, rows[q_all == q]) for q in range(_ALIGN)]
        groups = [(q, sel) for q, sel in groups if sel.size]
        for _, sel in groups:
            sel.flags.writeable = False
        if len(_GROUPS) > 256:
            _GROUPS.clear()
        _GROUPS[key] = groups
    return groups


def _gemv(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """x @ w.t() of one row or one column (x (m, k), w (n, k) row-major, m or n 1): MKL's
    gemv, each output a dot product. The outputs in whole groups of four: the inner size in
    four lanes after a head of h = (k - 1) mod 4 + 1 products added in order (the first lane
    starting from it), to the end, reduced as (l0 + l2) + (l1 + l3). The last outputs (n mod
    4, or m mod 4; a single one): after a head of min(k, 4), eight lanes a step (the second of
    them: four lanes twice a step), the products past the last step added after in order."""
    (m, k), n = x.shape, w.shape[0]
    count = m * n
    a, b = (x[0], w) if m == 1 else (w[0], x)  # (the vector, the outputs' rows)

    def products(lo: int, hi: int) -> np.ndarray:  # outputs lo to hi's, rounded: (1, hi-lo, k)
        return (b[lo:hi] * a)[None]

    whole = count - count % _ALIGN
    out = np.empty((1, count), _F32)
    q = (k - 1) % _ALIGN + 1
    step = max(_ALIGN, _DOT_WORK // max(1, k) // _ALIGN * _ALIGN)
    for lo in range(0, whole, step):
        hooks.observer.check_clock()
        hi = min(lo + step, whole)
        p = products(lo, hi)
        out[:, lo:hi] = _lanes(p, _head(p, q), q, 4)
    q = min(k, _ALIGN)
    steps = (k - q) // 8
    if steps == 0 and whole < count and k < _GEMV_TAIL_WHOLE:
        # (no step of lanes: each last output is its products added in order from zero, the
        # head's and then the rest, whichever of the two layouts: all at once)
        p = products(whole, count)
        acc = p[:, :, 0] + np.float32(0)
        for j in range(1, k):
            acc += p[:, :, j]
        out[:, whole:] = acc
        return out.reshape(m, n)
    for c in range(whole, count):  # the last outputs, one by one
        one = products(c, c + 1)
        if c - whole == 1:
            out[:, c : c + 1] = _lanes(one, _head(one, q), q, 4, 2 * steps)
        else:
            out[:, c : c + 1] = _lanes(one, _head(one, q), q, 8, steps)
    return out.reshape(m, n)


def _head(p: np.ndarray, q: int) -> np.ndarray:
    head = np.zeros(p.shape[:2], _F32)
    for j in range(min(q, p.shape[2])):
        head += p[:, :, j]
    return head


def _lanes(
    p: np.ndarray, head: np.ndarray, q: int, width: int, nv: int | None = None
) -> np.ndarray:
    """The sums of `p` (rows, columns, k) in `width` lanes over `nv` vectors after a head of
    q products (summed in `head`, the first lane's start), reduced by halves, the rest added
    after in order."""
    k = p.shape[2]
    if nv is None:
        nv = max(0, (k - q) // width)
    stop = q + nv * width
    if nv:
        lanes = np.zeros(p.shape[:2] + (width,), _F32)
        lanes[..., 0] = head
        blocks = p[..., q:stop].reshape(p.shape[:2] + (nv, width))
        for v in range(nv):
            lanes += blocks[..., v, :]
        while lanes.shape[-1] > 1:
            h = lanes.shape[-1] // 2
            lanes = lanes[..., :h] + lanes[..., h:]
        s = lanes[..., 0]
    else:
        s = head.copy()
    for j in range(stop, k):
        s += p[:, :, j]
    return s


# Float64 (MKL's dgemm on this family), measured likewise on PyTorch 2.13 (one thread, random
# normal operands, rows 2 to 20, columns 2 to 40, inner sizes 1 to 1,024, `a @ b` with b
# row-major and a row-major or transposed): the chain kernel (fused multiply-adds in the order
# of k, from zero: `linalg._fma64_chain`) computes the whole groups of 4 rows and 12 columns,
# the inner size whole up to 1,024 (no blocks; past it the blocks were not found: not
# modelled); the other columns of those rows and the last m mod 4 rows (everything with fewer
# than 4 rows or 12 columns) are the small kernel's rounded products added in order, except
# the first element of an output row that starts off a 16-byte boundary (row i's element c at
# i n + c floats from an aligned start, odd) with 2 elements or more of the row left after it:
# its products added as A = (A + p0 + p1 + p2 + p3) + (p4 + ... + p7) for each 8, then one by
# one (as sgemm's peeled elements). 380 of 384 random products equal in every element; the 4
# others, a peeled element with an inner size of 300, are not this order (not found): past
# `_PEEL64_MAX_K` a product with a peeled element is not modelled (None). Then
# `test_gemm64_avx2`: 304 products of 2 to 16 rows (odd row counts too), every element equal.
# x @ w.t() (x row-major, w row-major: nn.Linear's product) is the same chain in the whole
# 4 x 12 blocks; elsewhere (fewer than 4 rows or 12 columns; the last columns of the chain
# rows up to 200 inner) a kernel of dot products (`_dots64`) whose split depends on the row's
# alignment and the column's group (measured: 268 random shapes of 2 to 19 rows, 1 to 299
# inner, 2 to 39 columns where modelled, every element equal). Not modelled (None: the avx512
# family's order): the last m mod 4 rows beside chains, and the chain rows' last columns past
# 200 inner (218: another order). One row or column (dgemv) is another kernel here, not
# modelled either.
_CHAIN64_COLS = 12
_MAX64_K = 1024  # the inner sizes measured (the chain's blocks past it are not)
_PEEL64_MAX_K = 256  # ... and those where the peeled elements' order holds (200: yes; 300: no)
_ALIGN64 = 2  # doubles in 16 bytes
_NT_TAIL_MAX_K = 200  # x @ w.t(): the inner sizes where the chain rows' last columns hold


def models64(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether `mm64` models x @ y (float64 matrices of 2 rows and 2 columns or more, y
    row-major or w.t() of a row-major w, within the inner sizes measured)."""
    if x.ndim != 2 or y.ndim != 2 or x.dtype != np.float64 or y.dtype != np.float64:
        return False
    (m, k), n = x.shape, y.shape[1]
    if m < 2 or n < 2 or k < 1 or y.shape[0] != k:
        return False
    layout = _layout(x, y)
    nc = n - n % _CHAIN64_COLS if m >= _MIN_ROWS else 0
    mc = m - m % _MIN_ROWS if nc else 0
    if layout == "nt":
        # the dot kernel of the chain rows' last columns: past 200 inner, not always this
        # order (218: no); the last m mod 4 rows beside chains: `_pairs64`
        return k <= _MAX64_K and not (mc and nc < n and k > _NT_TAIL_MAX_K)
    if layout != "nn" or k > _MAX64_K:
        return False
    regions = [(r0, r1, c0) for r0, r1, c0 in ((0, mc, nc), (mc, m, 0)) if r1 > r0 and n > c0]
    return k <= _PEEL64_MAX_K or not any(_peeled64(r0, r1, c0, n).size for r0, r1, c0 in regions)


def mm64(
    x: np.ndarray,
    y: np.ndarray,
    bias: np.ndarray | None = None,
    out_at: int = 0,
    x_at: int = 0,
) -> np.ndarray | None:
    """x @ y of float64 matrices in the avx2 family's dgemm order (see above); None where not
    measured (`models64`). `bias` (addmm's beta = 1, F.linear's; x @ w.t() only): the first
    term of the chains, added after the dot kernel's sums (measured: 6 shapes, every element
    equal). `out_at`: the doubles between an aligned start and the result's first element (a
    matrix of a batch, bmm's b m n, or of a buffer: the small kernel's peeled rows follow the
    result's address). `x_at`: likewise x's first element's (x @ w.t(): the dot kernel splits
    by the address of x's rows)."""
    if not models64(x, y):
        return None
    if bias is not None:
        if not y.T.flags.c_contiguous or bias.dtype != np.float64:  # (w.t(); w of one column
            # is row-major too: its product the same in both kernels)
            return None
        try:
            bias = np.broadcast_to(bias, (x.shape[0], y.shape[1])).astype(np.float64)
        except ValueError:
            return None
    m, n = x.shape[0], y.shape[1]
    if x.shape[1] == 1:
        # one inner index: every kernel's result is the product itself (-0 where it is -0;
        # measured: 1 x 1 convs, `x @ w.t()`), a bias added after
        with np.errstate(all="ignore"):
            out = x * y[0]
            return out if bias is None else out + bias
    nc = n - n % _CHAIN64_COLS if m >= _MIN_ROWS else 0
    mc = m - m % _MIN_ROWS if nc else 0
    # the other kernels' regions: (first row, last row, first column), the chains' the rest
    regions = [(r0, r1, c0) for r0, r1, c0 in ((0, mc, nc), (mc, m, 0)) if r1 > r0 and n > c0]
    out = np.empty((m, n))
    nt = _layout(x, y) == "nt"
    with np.errstate(all="ignore"):
        if mc:
            if bias is None:
                out[:mc, :nc] = _linalg()._fma64_chain(x[:mc], y[:, :nc])
            else:
                out[:mc, :nc] = _fma64_chain_from(x[:mc], y[:, :nc], bias[:mc, :nc].copy())
        for r0, r1, c0 in regions:
            if nt and r0 == mc and nc:
                # the last m mod 4 rows beside chains (`models64`)
                out[r0:r1] = _pairs64(x[r0:r1], y.T, r0 + x_at // max(x.shape[1], 1))
            elif nt:
                out[r0:r1, c0:] = _dots64(x[r0:r1], y[:, c0:].T, r0, x_at)
            else:
                peeled = _peeled64(r0, r1, c0, n, out_at) - r0
                out[r0:r1, c0:] = _small64(x[r0:r1], y[:, c0:], peeled)
            if bias is not None:
                out[r0:r1, c0:] += bias[r0:r1, c0:]
    return out


def mm64_onto(x: np.ndarray, y: np.ndarray, c: np.ndarray, out_at: int = 0) -> np.ndarray | None:
    """c + x @ y of float64 matrices, y row-major ("nn"), as dgemm adds them with beta = 1 (the
    output set to c first: slow_conv2d's bias); None where not measured. Measured on PyTorch
    2.13 (float64 F.conv2d with a bias, random shapes): the chains and the small kernel's sums
    both start from c (every step rounded), its peeled elements too (by eights from c); with
    one inner index, the product rounded and c added after."""
    if not models64(x, y) or _layout(x, y) != "nn" or c.shape != (x.shape[0], y.shape[1]):
        return None
    if x.shape[1] == 1:
        y0 = mm64(x, y, out_at=out_at)
        return None if y0 is None else y0 + c
    m, n = x.shape[0], y.shape[1]
    nc = n - n % _CHAIN64_COLS if m >= _MIN_ROWS else 0
    mc = m - m % _MIN_ROWS if nc else 0
    regions = [(r0, r1, c0) for r0, r1, c0 in ((0, mc, nc), (mc, m, 0)) if r1 > r0 and n > c0]
    out = np.array(c, dtype=np.float64)
    with np.errstate(all="ignore"):
        if mc:
            out[:mc, :nc] = _fma64_chain_from(x[:mc], y[:, :nc], out[:mc, :nc].copy())
        for r0, r1, c0 in regions:
            acc = out[r0:r1, c0:]
            for j in range(x.shape[1]):
                if j % _STEP_CHECK == _STEP_CHECK - 1:
                    hooks.observer.check_clock()
                acc += x[r0:r1, j, None] * y[j, c0:]
            peeled = _peeled64(r0, r1, c0, n, out_at)
            if peeled.size:
                out[peeled, c0] = _peel64(x[peeled] * y[:, c0], c[peeled, c0].copy())
    return out


def _fma64_chain_from(x: np.ndarray, y: np.ndarray, acc: np.ndarray) -> np.ndarray:
    """acc = fma(x[:, j], y[j], acc) for j in order (`linalg._fma64_chain` from `acc`)."""
    linalg = _linalg()
    for j in range(x.shape[1]):
        if j % _STEP_CHECK == _STEP_CHECK - 1:
            hooks.observer.check_clock()
        acc = linalg._fma64_chain_from(x[:, j : j + 1], y[j : j + 1], acc)
    return acc


def _dots64(x: np.ndarray, w: np.ndarray, r0: int, x_at: int = 0) -> np.ndarray:
    """x @ w.t() by the float64 dot kernel (x (m, k) the rows r0 on of a row-major matrix, w
    (n, k) row-major), every step rounded: a row that starts off a 16-byte boundary (row i at
    i k doubles, odd) takes its first product apart, the start of the first lane; then two
    lanes (even and odd k after it) in one accumulator for the columns in whole groups of 4,
    in four accumulators of two lanes for the last n mod 4 (products 8 a step, the
    accumulators added (a0 + a1) + (a2 + a3)); the lanes added, then the products past the
    last whole step one by one."""
    (m, k), n = x.shape, w.shape[0]
    out = np.empty((m, n))
    n4 = n - n % 4
    for i in range(m):
        hooks.observer.check_clock()
        p = x[i] * w  # (n, k): the rounded products
        q = min((x_at + (r0 + i) * k) % _ALIGN64, k)
        if n4:
            out[i, :n4] = _lanes64(p[:n4], q, 1)
        if n4 < n:
            out[i, n4:] = _lanes64(p[n4:], q, 4)
    return out


def _pairs64(x: np.ndarray, w: np.ndarray, r0: int = 0) -> np.ndarray:
    """x @ w.t() for the last m mod 4 rows beside dgemm's chains (x (r, k) the rows r0 on of a
    row-major matrix, w (n, k) row-major), every step rounded: the first product, or the
    first two added for an even k, start the first lane; then the products in pairs, the
    first of each to the first lane and the second to the other; the lanes added. (Read from
    sums that cancel, then random operands: 5 to 9 rows, 12 to 36 columns, inner sizes 2 to
    120: 533 of 533 rows equal.) The last n mod 4 columns after whole groups of 4 take
    kernels of 8 products a step (`_lanes8`) after a head of two products (one where the
    row starts off a 16-byte boundary): one column "four"; two "two", "one"; three "two",
    "one", "four" (measured likewise: every element of 600 random rows equal)."""
    (r, k), n = x.shape, w.shape[0]
    out = np.empty((r, n))
    h = min(2 if k % 2 == 0 else 1, k)
    last = _LAST_COLUMNS[n % 4] if n > 4 else ()
    for i in range(r):
        hooks.observer.check_clock()
        p = x[i] * w  # (n, k)
        a = _in_order(p[:, 0], p[:, 1:h])
        if k > h:
            a = _in_order(a, p[:, h::2])
            b = _in_order(np.zeros(n), p[:, h + 1 :: 2])
            a = a + b
        out[i] = a
        head = min(2 - (r0 + i) * k % 2, k)
        for j, kind in enumerate(last):
            col = n - len(last) + j
            out[i, col] = _lanes8(p[col : col + 1], head, kind)[0]
    return out


# the kernels of the last n mod 4 columns of `_pairs64`
_LAST_COLUMNS = {0: (), 1: ("four",), 2: ("two", "one"), 3: ("two", "one", "four")}


def _lanes8(p: np.ndarray, head: int, kind: str) -> np.ndarray:
    """The sums of `p` (columns, k): the first `head` products in order, the start of the
    first lane, then 8 products a step, pairs of two lanes: "four", one pair to each of four
    accumulators, added (a0 + a1) + (a2 + a3); "two", the pairs to two accumulators in turn,
    added; "one", every pair to one; the two lanes added, the rest one by one."""
    n, k = p.shape
    start = _in_order(p[:, 0], p[:, 1:head]) if head else np.zeros(n)
    steps = (k - head) // 8
    stop = head + 8 * steps
    if not steps:
        return _in_order(start, p[:, head:])
    blocks = p[:, head:stop].reshape(n, steps, 4, 2)
    nacc = {"four": 4, "two": 2, "one": 1}[kind]
    acc = np.zeros((n, nacc, 2))
    acc[:, 0, 0] = start
    for b in range(steps):
        for j in range(4):
            acc[:, j % nacc] += blocks[:, b, j]
    while acc.shape[1] > 1:
        acc = acc[:, 0::2] + acc[:, 1::2]
    return _in_order(acc[:, 0, 0] + acc[:, 0, 1], p[:, stop:])


def _lanes64(p: np.ndarray, q: int, nacc: int) -> np.ndarray:
    """The sums of the products `p` (columns, k) after a head of q: `nacc` accumulators of two
    lanes (see `_dots64`)."""
    n, k = p.shape
    head = p[:, 0] + 0.0 if q else np.zeros(n)
    step = 2 * nacc
    steps = max(0, (k - q) // step)
    stop = q + steps * step
    if not steps:
        s = head
    else:
        blocks = p[:, q:stop].reshape(n, steps, nacc, 2)
        acc = np.zeros((n, nacc, 2))
        acc[:, 0, 0] = head
        for b in range(steps):
            acc += blocks[:, b]
        while acc.shape[1] > 1:
            acc = acc[:, 0::2] + acc[:, 1::2]
        s = acc[:, 0, 0] + acc[:, 0, 1]
    for j in range(stop, k):
        s = s + p[:, j]
    return s


def _peeled64(r0: int, r1: int, c0: int, n: int, at: int = 0) -> np.ndarray:
    """The rows r0 to r1 whose element c0 the small kernel peels (see above; the result `at`
    doubles past an aligned start)."""
    rows = np.arange(r0, r1)
    return rows[((at + rows * n + c0) % _ALIGN64 == 1) & (n - c0 - 1 >= _ALIGN64)]


def _small64(x: np.ndarray, y: np.ndarray, peeled: np.ndarray) -> np.ndarray:
    """The small kernel in float64: rounded products added in order; the first element of the
    `peeled` rows by eights (see above)."""
    (m, k), n = x.shape, y.shape[1]
    acc = np.zeros((m, n))
    for j in range(k):
        if j % _STEP_CHECK == _STEP_CHECK - 1:
            hooks.observer.check_clock()
        acc += x[:, j, None] * y[j]
    if peeled.size:
        acc[peeled, 0] = _peel64(x[peeled] * y[:, 0], np.zeros(peeled.size))
    return acc


def _peel64(p: np.ndarray, a: np.ndarray) -> np.ndarray:
    """The peeled elements' sums of the rounded products p (rows, k) from a (see above):
    a = (a + p0 + p1 + p2 + p3) + (p4 + ... + p7) for each 8, then one by one."""
    k = p.shape[1]
    j = 0
    while k - j >= 8:
        for q in range(j, j + 4):
            a += p[:, q]
        b = p[:, j + 4] + 0.0
        for q in range(j + 5, j + 8):
            b += p[:, q]
        a += b
        j += 8
    for q in range(j, k):
        a += p[:, q]
    return a


# Float64 matrix-vector products (MKL's dgemv on this family), measured on PyTorch 2.13 (one
# thread; torch-allocated operands, 64-byte aligned, and views 1 to 3 doubles into them; the
# order read from sums that cancel, as FPRev does, then random operands): no fused steps, each
# product rounded and added. `A @ v` (A row-major (m, k): also `x @ w.t()` of one row, F.linear
# of one sample, `A @ column`, addmv, the bias added after) takes the rows by groups of 4, then
# a pair, then a single row, each with its kernel (`_GEMV64_KERNELS`): a head of the first
# products added in order (2, except in the groups of 4 where it is 1 when the storage offset
# plus k is odd: the second row's 16-byte alignment), then lanes of `width` products in
# `naccs` accumulators, `step` products a turn (the turn's chunks of `width` to the
# accumulators in turn; the head the start of the first lane), the lanes folded by halves
# (0 + 2, 1 + 3), the accumulators added, lane 0 + lane 1, then the products after the last
# whole turn one by one; fewer than a turn after the head: all in order. (1,500 random
# products of 1 to 20 rows, inner sizes 1 to 300, storage offsets 0 to 3, and every entry
# point above: every element equal.) A row times a row-major matrix (`v @ A`) and a transposed
# row-major matrix times a vector (`A.t() @ v`) are each output's products added in the order
# of k (`column64`; measured: inner sizes to 1,500, columns to 400, every element equal).
_GEMV64_KERNELS = {4: (2, 1, 2), 2: (4, 1, 8), 1: (2, 1, 8), 0: (4, 2, 8)}  # (width, accs, step)


def gemv64(a: np.ndarray, v: np.ndarray, offset: int = 0, v_offset: int = 0) -> np.ndarray:
    """a @ v (a (m, k) float64 of contiguous rows, `offset` doubles into its storage; v (k,),
    `v_offset` doubles into its) in the avx2 family's dgemv order (see above). A vector that
    starts off a 16-byte boundary (odd `v_offset`: the im2col columns of a conv's second
    sample) makes the pair's and the single row's heads 1 product (measured: the weight
    gradients of float64 convs with one input channel and tap, 2 to 9 rows, inner sizes 1
    to 80, 1 to 4 samples: 400 of 400 equal in every element)."""
    m, k = a.shape
    odd_v = v_offset % 2 == 1
    with np.errstate(all="ignore"):
        p = a * v
        out = np.empty(m)
        g4 = m - m % 4
        if g4:
            head = 1 if (offset + k) % 2 else 2
            out[:g4] = _gemv64_rows(p[:g4], head, *_GEMV64_KERNELS[4])
        head = 1 if odd_v else 2
        if m - g4 >= 2:  # the pair's two rows: two kernels
            out[g4] = _gemv64_rows(p[g4 : g4 + 1], head, *_GEMV64_KERNELS[2])[0]
            out[g4 + 1] = _gemv64_rows(p[g4 + 1 : g4 + 2], head, *_GEMV64_KERNELS[1])[0]
        if (m - g4) % 2:
            out[m - 1] = _gemv64_rows(p[m - 1 :], head, *_GEMV64_KERNELS[0])[0]
    return out


def _in_order(start: np.ndarray, p: np.ndarray) -> np.ndarray:
    """start + p[:, 0] + p[:, 1] + ..., each sum rounded in turn (add.accumulate is sequential,
    unlike add.reduce's pairwise sums)."""
    if not p.shape[1]:
        return start
    return np.add.accumulate(np.concatenate([start[:, None], p], axis=1), axis=1)[:, -1]


def _gemv64_rows(p: np.ndarray, head: int, width: int, naccs: int, step: int) -> np.ndarray:
    """The sums of the products `p` (rows, k) in one of dgemv's kernels (see above)."""
    m, k = p.shape
    h = min(head, k)
    start = _in_order(p[:, 0], p[:, 1:h])
    turns = (k - h) // step
    if not turns:
        return _in_order(start, p[:, h:])
    stop = h + turns * step
    chunks = p[:, h:stop].reshape(m, turns, step // width, width)
    accs = []
    for a in range(naccs):
        lanes = chunks[:, :, a::naccs, :]  # (m, turns, chunks of this accumulator, width)
        seq = np.moveaxis(lanes, 3, 1).reshape(m * width, -1)  # each lane's products in order
        first = np.zeros((m, width))
        if a == 0:
            first[:, 0] = start
        acc = _in_order(first.reshape(-1), seq).reshape(m, width)
        while acc.shape[1] > 2:
            half = acc.shape[1] // 2
            acc = acc[:, :half] + acc[:, half:]
        accs.append(acc)
    while len(accs) > 1:
        accs = [accs[j] + accs[j + 1] for j in range(0, len(accs), 2)]
    return _in_order(accs[0][:, 0] + accs[0][:, 1], p[:, stop:])


def column64(v: np.ndarray, b: np.ndarray) -> np.ndarray:
    """v @ b (v (k,), b (k, n) float64) as dgemv's column kernel on this family: each output's
    rounded products added in the order of k (see above)."""
    with np.errstate(all="ignore"):
        return _in_order(np.zeros(b.shape[1]), (b * v[:, None]).T)


def storage_offset(a: np.ndarray) -> int:
    """Elements from the start of the array `a` views to a's first (0 for an array of its own):
    what decides the alignment of its rows, as a tensor's storage offset does in PyTorch."""
    if a.base is None:
        return 0  # (an array of its own: no pointers to read)
    root = a
    while isinstance(root.base, np.ndarray):
        root = root.base
    delta = a.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    return delta // a.itemsize if 0 <= delta < root.nbytes else 0


def addmm_scaled(
    x: np.ndarray, y: np.ndarray, c: np.ndarray, alpha: float, beta: float, out_at: int = 0
) -> np.ndarray | None:
    """beta * c + alpha * (x @ y) (addmm's, c broadcast to the result) as MKL's gemm computes it
    on this family with those scalars (float32 or float64; None where not modelled): the
    result set to beta * c first (zeros for beta = 0: c is not read), then each kernel's sums
    from it, with alpha folded into one operand as MKL packs it: the chain kernel's products
    are x[i, k] * (alpha * y[k, j]) fused, the small kernel's (alpha * x[i, k]) * y[k, j]
    rounded. Measured on PyTorch 2.13 (AMD Zen 4, one thread; random shapes of 1 to 11 rows,
    1 to 39 inner, 1 to 29 columns, alpha and beta 0.1 to 3): float32 296 of 300 equal in
    every element, float64 every modelled product (the chains' rows x columns and the rest as
    `mm64_onto` splits them). `out_at`: the result's elements from an aligned start (a
    matrix of baddbmm's batch)."""
    dt = x.dtype
    if x.ndim != 2 or y.ndim != 2 or dt not in (_F32, np.dtype(np.float64)) or y.dtype != dt:
        return None
    (m, k), n = x.shape, y.shape[1]
    if y.shape[0] != k or not (m and n and k):
        return None
    t = dt.type
    try:
        base = np.broadcast_to(c, (m, n))
    except ValueError:
        return None
    with np.errstate(all="ignore"):
        if beta == 0:
            c0 = np.zeros((m, n), dt)
        else:
            c0 = base.astype(dt) if beta == 1 else base.astype(dt) * t(beta)
        ax = x if alpha == 1 else x * t(alpha)
        ay = y if alpha == 1 else y * t(alpha)
        if dt == _F32:
            if n == 1 and m >= 2 and k >= 2:
                # one column: the gemv sum times alpha, rounded, then C added (measured)
                v = mm(x, y)
                if v is None:
                    return None
                return (v if alpha == 1 else v * t(alpha)) + c0
            if m >= _MIN_ROWS and n >= _MIN_COLS:
                return mm(x, ay, c0, out_at=out_at)
            return mm(ax, y, c0, out_at=out_at)
        if m == 1:
            # one row: dgemv's column kernel, each output from C, the products (alpha x) y in
            # the order of k (measured: 300 random shapes, every element equal); an output
            # off a 16-byte boundary (baddbmm's odd matrices) peels its first element
            p = ax[0][:, None] * y
            row = _in_order(c0[0].copy(), p.T)
            if out_at % 2 and n >= 2:
                row[0] = _peel64(p[:, :1].T, c0[0, :1].copy())[0]
            return row[None]
        if n == 1:
            # one column: dgemv (`gemv64`), the sum times alpha, then C added (measured
            # likewise, x of contiguous rows)
            if not x.flags.c_contiguous:
                return None
            v = gemv64(x, y[:, 0], storage_offset(x))
            return ((v if alpha == 1 else v * t(alpha)) + c0[:, 0])[:, None]
        small = mm64_onto(ax, y, c0, out_at=out_at)
        if small is None:
            return None
        nc = n - n % _CHAIN64_COLS if m >= _MIN_ROWS else 0
        mc = m - m % _MIN_ROWS if nc else 0
        if mc and alpha != 1:
            chain = mm64_onto(x, ay, c0, out_at=out_at)
            if chain is None:
                return None
            small[:mc, :nc] = chain[:mc, :nc]
    return small
