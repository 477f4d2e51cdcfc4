"""The linear-algebra record: matmul (with its forward-mode rule), which `@`, mm, mv, dot, bmm
and linear all reach."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..base import limits
from ..core import cpu, hooks
from ..core import primitives as P
from ..core import saved as V
from ..core.autograd import SUM_PRODUCT, complex_record
from ..core.fma64 import _fma64
from ..core.op import Sample, apply, defop
from ..core.tensor import Tensor, _GradMode, wrap
from ..core.vecloop import split_loop
from . import blas32
from .elementwise import scale
from .shape import expand, permute, reshape_to, squeeze, transpose_last, unsqueeze


def _matmul_vjp(g: Tensor, out: Tensor, x: Tensor, y: Tensor) -> tuple:
    if "c" in (g.dtype.kind, x.dtype.kind, y.dtype.kind):
        # PyTorch's rules multiply by the conjugate operand (mm: grad.mm(mat2.mH); mv:
        # grad.outer(vec.conj()); dot: grad * other.conj()): the real rule on conj(y) for x's
        # gradient and on conj(x) for y's. (The engine's conj(rule(conj(g))) has the same
        # values but -0 for a zero imaginary part that cancels exactly, where PyTorch's is 0.)
        # (`out` is not passed on: the rule does not read it, `core.autograd._reads`)
        gx = _matmul_real_vjp(g, None, x, _conj(y))[0] if x.requires_grad else None
        gy = _matmul_real_vjp(g, None, _conj(x), y)[1] if y.requires_grad else None
        return (gx, gy)
    return _matmul_real_vjp(g, None, x, y)


def _t(t: Tensor) -> Tensor:
    """`t.t()` of a matrix (TBackward0)."""
    return apply(permute, t, perm=(1, 0), label="TBackward0")


def _conj(t: Tensor) -> Tensor:
    return apply(complex_record("conj"), t) if t.dtype.kind == "c" else t


def _matmul_real_vjp(g: Tensor, out: Any, x: Tensor, y: Tensor) -> tuple:
    # Only the gradients that are wanted (an outer product for a constant weight matrix can be
    # far larger than everything else), and one matrix product, not a stack of vector ones,
    # where an operand is a matrix.
    nx, ny = x.requires_grad, y.requires_grad
    if x.ndim == 1 and y.ndim == 1:
        gu = unsqueeze(g, -1)
        return (gu * y if nx else None, gu * x if ny else None)
    recorded = _GradMode.enabled and not _GradMode.dual and not _GradMode.vmapped
    if x.ndim == 1 and y.ndim == 2 and g.ndim == 1 and recorded:
        # create_graph: PyTorch's nodes for unsqueeze(0).mm(mat2).squeeze_(0): the squeeze's
        # gradient unsqueezed (UnsqueezeBackward0), mm's rules with .t() (mat2's first), the
        # unsqueeze's gradient squeezed back (SqueezeBackward1)
        g1 = unsqueeze(g, 0)
        gy = apply(matmul, _t(unsqueeze(x, 0)), g1, label="MmBackward0") if ny else None
        gx = squeeze(apply(matmul, g1, _t(y), label="MmBackward0"), 0) if nx else None
        return (gx, gy)
    if x.ndim >= 3 and y.ndim == 1 and g.ndim == x.ndim - 1 and x.data.size:
        # PyTorch's folded product, _unsafe_view(x.reshape(-1, k).mv(w)): the gradient viewed
        # flat (ViewBackward0), mv's rules (grad.ger(vec): a column view times the vector;
        # self.t().mv(grad): one mv, its order), the fold's gradient viewed back
        k = x.shape[-1]
        gf = reshape_to(g, (-1,))
        gx = reshape_to(reshape_to(gf, (gf.shape[0], 1)) * y, x.shape) if nx else None
        gy = apply(matmul, _t(reshape_to(x, (-1, k))), gf, label="MvBackward0") if ny else None
        return (gx, gy)
    if x.ndim == 1:
        # (a vector times a matrix is PyTorch's mm of the unsqueezed vector: mat2's first)
        gy = unsqueeze(x, -1) * unsqueeze(g, -2) if ny else None
        if not nx:
            gx = None
        elif y.ndim == 2:
            gx = g @ transpose_last(y)
        else:
            gx = squeeze(unsqueeze(g, -2) @ transpose_last(y), -2)
        if gy is not None and 1 in y.shape and y.ndim == 2 and not gy.requires_grad:
            # PyTorch's mm of one column or row is MKL's gemv, whose sums start from +0: no -0
            # elements (`_first_product_zeros`)
            gy = Tensor(gy.data + np.zeros((), gy.dtype))
        return (gx, gy)
    if y.ndim == 1:
        # (mv's rule: grad.ger(vec), the gradient viewed as a column: ViewBackward0)
        gx = reshape_to(g, (*g.shape, 1)) * y if nx else None
        if not ny:
            gy = None
        elif x.ndim == 2 and g.ndim == 1:
            gy = apply(matmul, _t(x), g, label="MvBackward0")  # (self.t().mv(grad))
        elif x.ndim == 2:
            gy = g @ x
        else:
            gy = squeeze(unsqueeze(g, -2) @ x, -2)
        return (gx, gy)
    if x.ndim > 2 and y.ndim == 2 and ny and g.ndim == x.ndim and math.prod(x.shape) > 0:
        # as PyTorch's folded product: one mm over all the rows, not a sum of batched ones;
        # mm_mat2_backward's rule for a column-major mat2 (`w.t()`: F.linear through matmul,
        # a 3-D input that is not contiguous) its gradient as the transposed product
        k, n = x.shape[-1], y.shape[1]
        xf, gf = reshape_to(x, (-1, k)), reshape_to(g, (-1, n))
        if _column_major(y.data):
            gy = transpose_last(transpose_last(gf) @ xf)
        else:
            gy = transpose_last(xf) @ gf
        return (g @ transpose_last(y) if nx else None, gy)
    if (
        x.ndim == 2
        and y.ndim > 2
        and x.dtype == y.dtype == np.float32
        and g.ndim == y.ndim
        and math.prod(g.shape) > 0
    ):
        # the folded product of `_matmul_fwd` (a matrix that requires grad times a batch):
        # PyTorch's MmBackward0 of (y^T folded) @ x^T, the gradient folded the same way; x^T
        # is column-major, so its gradient is the transposed product
        k, m = y.shape[-2], x.shape[0]
        gf = reshape_to(transpose_last(g), (-1, m))
        gx = transpose_last(gf) @ reshape_to(transpose_last(y), (-1, k)) if nx else None
        gy = None
        if ny:
            gy = transpose_last(reshape_to(gf @ x, (*y.shape[:-2], y.shape[-1], k)))
        return (gx, gy)
    if x.ndim == 2 and y.ndim == 2:
        # PyTorch's mm_mat1_backward / mm_mat2_backward: an operand laid out column-major (a
        # transposed matrix, or a 1 x 1 one) gets its gradient as a transposed product, in
        # the layout it has (the other order of MKL's sums)
        cx = nx and _column_major(x.data)
        cy = ny and _column_major(y.data)
        if (
            type(g) is Tensor
            and g.ndim == 2
            and g.dtype == x.dtype == y.dtype
            and x.dtype.isnative  # (not bfloat16: `core.op.apply` computes that)
            and not _GradMode.enabled
            and not _GradMode.dual
        ):
            # A pass that records nothing (no create_graph): the two products on the arrays,
            # the transposed operand the view `transpose_last` makes (the same kernels, the
            # same bits, without two ops' dispatch each)
            with np.errstate(all="ignore"):
                gx = gy = None
                if nx:
                    gx = (
                        _matmul_record(y.data, g.data.T).T
                        if cx
                        else _matmul_record(g.data, y.data.T)
                    )
                if ny:
                    gy = (
                        _matmul_record(g.data.T, x.data).T
                        if cy
                        else _matmul_record(x.data.T, g.data)
                    )
            return (wrap(gx) if nx else None, wrap(gy) if ny else None)
        # recorded (create_graph=True) in PyTorch's order: MmBackward0 mat2's gradient first,
        # AddmmBackward0 mat1's (`core.autograd.SUM_PRODUCT`)
        # (mm's rules transpose with .t(): TBackward0)
        gx = gy = None
        if nx and SUM_PRODUCT[0]:
            gx = _t(y @ _t(g)) if cx else g @ _t(y)
        if ny:
            gy = _t(_t(g) @ x) if cy else _t(x) @ g
        if nx and gx is None:
            gx = _t(y @ _t(g)) if cx else g @ _t(y)
        return (gx, gy)
    if x.ndim == y.ndim == g.ndim == 3 and x.shape[0] == y.shape[0]:
        # bmm's rules (grad.bmm(mat2.transpose(1, 2)), self.transpose(1, 2).bmm(grad)):
        # BmmBackward0 nodes when recorded
        # (batch2's first; baddbmm batch1's, `SUM_PRODUCT`)
        if SUM_PRODUCT[0]:
            gx = _bmm(g, transpose_last(y)) if nx else None
            return (gx, _bmm(transpose_last(x), g) if ny else None)
        gy = _bmm(transpose_last(x), g) if ny else None
        return (_bmm(g, transpose_last(y)) if nx else None, gy)
    # (bmm: batch2's first; baddbmm batch1's, `SUM_PRODUCT`)
    if SUM_PRODUCT[0]:
        return (g @ transpose_last(y) if nx else None, transpose_last(x) @ g if ny else None)
    gy = transpose_last(x) @ g if ny else None
    return (g @ transpose_last(y) if nx else None, gy)


def _column_major(a: np.ndarray) -> bool:
    """PyTorch's test for a column-major matrix (strides (1, rows), in elements): a transposed
    contiguous matrix, and every 1 x 1 one."""
    st = a.strides
    return st[0] == a.itemsize and st[1] == a.shape[0] * a.itemsize


def _matmul_jvp(dots: tuple, out: Tensor, x: Tensor, y: Tensor) -> Tensor:
    """dx @ y + x @ dy, the tangents `dx`, `dy` (either may be None) with leading batch axes."""
    dx, dy = dots
    nb = dx.ndim - x.ndim if dx is not None else dy.ndim - y.ndim
    total = None
    if dx is not None:
        lead = dx.shape[:nb]
        if x.ndim == 1 and y.ndim > 2:
            total = squeeze(reshape_to(dx, lead + (1,) * (y.ndim - 1) + x.shape) @ y, -2)
        elif x.ndim == 1 or y.ndim == 1:
            total = dx @ y
        else:
            total = reshape_to(dx, lead + (1,) * (out.ndim - x.ndim) + x.shape) @ y
    if dy is not None:
        lead = dy.shape[:nb]
        if y.ndim == 1 and x.ndim == 1:
            t = dy @ x
        elif y.ndim == 1 and x.ndim == 2:
            t = dy @ transpose_last(x)
        elif y.ndim == 1:
            t = squeeze(
                reshape_to(dy, lead + (1,) * (x.ndim - 1) + y.shape) @ transpose_last(x), -2
            )
        else:
            t = x @ reshape_to(dy, lead + (1,) * (out.ndim - y.ndim) + y.shape)
        total = t if total is None else total + t
    return total


# Multiply-adds one NumPy call may do. A float product runs at BLAS speed (a few billion a
# second), an integer one in NumPy's plain loops (under a billion: a 2500 x 2500 product takes
# half a minute): a larger product is computed in pieces, the clock read between them, so that
# the time limit binds within a fraction of a second of being spent.
FLOAT_PIECE = 1 << 29
INT_PIECE = 1 << 25
EXACT = 1 << 53  # every integer up to this is a float64


def _blocked(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether `x @ y` is one of MKL's blocked chains (`_mm_float32`, see there): up to
    `_FMA_MAX_WORK` multiply-adds whatever this machine's BLAS does, up to `_BLAS_MAX_WORK`
    where BLAS is proven to compute every block's chain (`blas32`, proving it the first time)."""
    if not _blocked_layout(x, y):
        return False
    (m, k), n = x.shape, y.shape[1]
    if m * k * n <= _FMA_MAX_WORK:
        return True
    if m * k * n > _BLAS_MAX_WORK:
        return False
    ks = [hi - lo for lo, hi in _k_blocks(k, _plain_blocks(x, y))]
    return blas32.all_proven(m, ks, n, _fma_chain_emulated)


def _blocked_layout(x: np.ndarray, y: np.ndarray) -> bool:
    return (
        x.ndim == 2
        and y.ndim == 2
        and x.dtype == np.float32
        and y.dtype == np.float32
        and y.shape[1] >= 2
        and 0 < x.shape[1] <= _FMA_MAX_K
        and (
            (y.flags.c_contiguous and x.shape[0] >= 2)
            or (
                # `x @ w.t()`, nn.Linear's product: the same chain for 16 rows or more
                y.flags.f_contiguous
                and x.flags.c_contiguous
                and x.shape[0] >= _FMA_MIN_ROWS_T
                and x.shape[1] >= 2
            )
        )
    )


_TT_MIN_ROWS = 8
_TT_MAX_N = 128


def _aten_layouts(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """float32 matrices of 2 rows and columns or more in the layouts MKL's order depends on,
    as ATen's addmm hands them over: rows or columns apart by more than their length (a slice
    of a wider matrix: MKL's leading dimension, which does not change its order) as the
    contiguous layout; a matrix neither row- nor column-major copied row-major (as ATen's
    clone); and two column-major operands (`a.t() @ b.t()`, ATen's gemm 'T', 'T') of 8 rows
    or more and at most 128 columns computed as two row-major ones (measured on PyTorch 2.13:
    random shapes, rows 8 to 150, columns 2 to 128 and inner sizes 2 to 1,800, every element
    equal; with fewer rows or more columns MKL's order is another for some shapes, not
    measured: NumPy's)."""
    xs, ys = _layout(x), _layout(y)
    if xs == "C" and ys == "C":
        if x.shape[0] >= _TT_MIN_ROWS and y.shape[1] <= _TT_MAX_N:
            return np.ascontiguousarray(x), np.ascontiguousarray(y)
        return x, y  # (MKL's other kernels, not measured)
    x = np.asfortranarray(x) if xs == "C" else np.ascontiguousarray(x)
    y = np.asfortranarray(y) if ys == "C" else np.ascontiguousarray(y)
    return x, y


def _layout(a: np.ndarray) -> str:
    """ "R" for a row-major matrix (its rows possibly apart), "C" for a column-major one, "-"
    for neither (ATen copies it row-major); 2 rows and columns or more."""
    st, item = a.strides, a.itemsize
    if st[1] == item and st[0] >= a.shape[1] * item:
        return "R"
    if st[0] == item and st[1] >= a.shape[0] * item:
        return "C"
    return "-"


def linear_sum(x: np.ndarray, y: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """`x @ y + b` (x (m, k), y = w.t(), b the bias of the n columns) rounded as PyTorch's addmm
    (F.linear, nn.Linear) on MKL, where that is not the rounded product plus the bias: with an
    inner size of 1 (two rows or more, two columns or more) the bias is fused into the product,
    one rounding of x * w + b; in MKL's blocked chains with more than 384 inner (see
    `_k_blocks`) the blocks' sums are added to the bias in order, ((b + s0) + s1) + ...
    (measured on PyTorch 2.13, every element equal). None elsewhere: the bias is added to the
    product after, rounded once, as `out + b`."""
    if x.ndim != 2 or y.ndim != 2 or x.shape[1] != y.shape[0]:
        return None
    if cpu.mkl_avx2() and x.dtype == y.dtype == b.dtype == np.float64 and y.T.flags.c_contiguous:
        # dgemm on an AVX2 processor: the bias first in the chains, after the dot kernel's sums
        from .gemm_avx2 import mm64

        if _avx2_64(x, y):
            return mm64(x, y, b)
    if x.dtype == y.dtype == b.dtype == np.float64 and x.shape[1] == 1 and _blocked64(x, y):
        # one inner index: dgemm fuses the bias, one rounding of x * w + b (as sgemm; measured)
        try:
            acc = np.broadcast_to(b, (x.shape[0], y.shape[1])).astype(np.float64)
        except ValueError:
            return None
        with np.errstate(all="ignore"):
            return _fma64_chain_from(x, y, acc) if _exact64(acc) else None
    if x.dtype == y.dtype == b.dtype == np.float64 and x.shape[1] > _KC64_T:
        # dgemm's blocks of 192 with the bias as beta: ((b + s0) + s1) + ... (measured)
        if y.flags.c_contiguous or not _blocked64(x, y):
            return None
        try:
            acc = np.broadcast_to(b, (x.shape[0], y.shape[1])).astype(np.float64)
        except ValueError:
            return None
        for lo, hi in _k_blocks(x.shape[1], kc=_KC64_T):
            acc = acc + _fma64_chain(x[:, lo:hi], y[lo:hi])
        return acc
    if x.dtype == y.dtype == b.dtype == np.float16:
        # ATen's half gemm adds the bias in its float32 accumulator (beta * c + alpha * dot):
        # one rounding of the float32 product plus the bias, not the rounded product plus it
        from ..core.bf16 import reduced_addmm

        return reduced_addmm(x, y, b, 1.0, 1.0)
    if b.dtype != np.float32 or x.dtype != np.float32 or y.dtype != np.float32:
        return None
    if cpu.mkl_avx2():
        # MKL on an AVX2 processor: the bias is the first term of every modelled kernel's sum
        # (`gemm_avx2`); elsewhere added after the product
        from .gemm_avx2 import mm as mm_avx2

        return mm_avx2(x, y, b)
    (m, k), n = x.shape, y.shape[1]
    if not (k == 1 or k > _KC):  # (the usual case: known before the bias is broadcast)
        return None
    try:
        bias = np.broadcast_to(b, (m, n)).astype(np.float32)
    except ValueError:
        return None
    with np.errstate(all="ignore"):
        if k == 1 and m >= 2 and n >= 2:
            return _fma32(x.astype(np.float64) * y[0].astype(np.float64), bias)
        if k > _KC and _blocked(x, y):
            for part in _chain_blocks(x, y, _k_blocks(k, _plain_blocks(x, y))):
                bias = bias + part
            return bias
    return None


def _broadcast_operand(a: np.ndarray) -> bool:
    """A float operand with a zero step along a dimension longer than 1 (an expanded tensor:
    the gradient a sum hands back is `ones.expand(shape)`): no BLAS layout takes it, and
    ATen's mm and mv copy it to a contiguous one first."""
    return a.dtype.kind == "f" and any(st == 0 and n > 1 for n, st in zip(a.shape, a.strides))


def _increment_vector(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """For MKL's AVX2 code (`cpu.mkl_avx2`): `x @ y` of float32 or float64 matrices where ATen
    hands one row or one column over with its elements apart (gemm 'N', 'T' with an increment
    of 2 or more): a row laid out as a transposed column (strides (1, s): `g.t() @ h` for g a
    column of a wider matrix, nn.Linear's weight gradient `grad.t() @ input` when the gradient
    is such a slice) times a row-major matrix, or a transposed matrix times a column whose rows
    are s apart (`h.t() @ g`). Those operands with the vector made contiguous, whose order
    MKL's AVX2 kernels follow there (measured on PyTorch 2.13: 150 random shapes each way and
    dtype with 1 to 40 columns, inner sizes 2 to 300, every element equal; float32: the
    AVX-512 code's strided order, `_gemv_n_strided`, 2 of 150; float64: NumPy's 1 of 150);
    None for the other layouts (a row-major matrix times such a column, gemm 'T', 'T': neither
    order, not modelled)."""
    if x.ndim != 2 or y.ndim != 2 or x.dtype != y.dtype or x.dtype.kind != "f":
        return None
    item, k = x.itemsize, x.shape[1]
    if k < 2 or y.shape[0] != k:
        return None
    if x.shape[0] == 1 and x.strides[0] == item and x.strides[1] >= 2 * item:
        if y.flags.c_contiguous or _rows_apart(y):
            return np.ascontiguousarray(x), np.ascontiguousarray(y)
        return None
    if y.shape[1] == 1 and y.strides[1] == item and y.strides[0] >= 2 * item:
        if x.T.flags.c_contiguous or _rows_apart(x.T):
            return np.ascontiguousarray(x.T).T, np.ascontiguousarray(y)
    return None


def _rows_apart(a: np.ndarray) -> bool:
    """A row-major matrix whose rows lie further apart than its width (`h[:, :n]` of a wider
    one): with a vector handed over with an increment (`_increment_vector`, `_increment_mv`)
    MKL's AVX2 code follows the contiguous matrix's order (measured on PyTorch 2.13: 120
    random shapes each way and dtype, every element equal)."""
    st, size = a.strides, a.itemsize
    return a.ndim == 2 and st[1] == size and st[0] % size == 0 and st[0] >= a.shape[1] * size


def _increment_mv(x: np.ndarray, y: np.ndarray) -> bool:
    """mv of a transposed float32 or float64 matrix of 2 rows or more and a vector whose
    elements are apart (`mv(h.t(), c[:, j])`): on MKL's AVX2 code the contiguous vector's
    order, as `_increment_vector` (measured: 100 float32 and 147 float64 random shapes, every
    element equal; one row: another order, not modelled)."""
    if x.dtype != y.dtype or x.dtype not in (np.float32, np.float64) or x.shape[0] < 2:
        return False
    return y.strides[0] >= 2 * y.itemsize and (x.T.flags.c_contiguous or _rows_apart(x.T))


def _blas_operand(a: np.ndarray) -> np.ndarray:
    """A float matrix operand of mm as ATen's addmm hands it to BLAS: as it is when one of its
    steps is one element and the other at least the length it spans (row- or column-major,
    rows or columns possibly apart), else a contiguous clone. ATen checks the steps of a
    size-1 axis too: a column of one in every other (`x[:, ::2]` of (k, 2), steps (2, 2)) is
    copied, and a copy's order is the contiguous operand's. Only for operands NumPy holds as
    neither C- nor F-contiguous (a newaxis's zero step is NumPy's, not ATen's, and those
    layouts take the contiguous operand's order already)."""
    if a.dtype.kind != "f" or a.size < 2 or a.flags.c_contiguous or a.flags.f_contiguous:
        return a
    item = a.itemsize
    if any(st % item for st in a.strides):
        return np.ascontiguousarray(a)
    (r, c), (s0, s1) = a.shape, (st // item for st in a.strides)
    if (s0 == 1 and s1 >= max(1, r)) or (s1 == 1 and s0 >= max(1, c)):
        return a
    return np.ascontiguousarray(a)


def _matmul_fwd(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError("both arguments to matmul need to be at least 1D")
    if x.dtype == y.dtype == np.float16 and y.ndim == 2:
        # ATen's own gemm loop for float16 (a matrix times a matrix, folded rows, a vector as
        # one row: `core.bf16.reduced_addmm`)
        from ..core.bf16 import reduced_addmm

        out = reduced_addmm(x, y)
        if out is not None:
            return out.reshape(*x.shape[:-1], y.shape[1])
    if x.dtype == y.dtype == np.float16 and x.ndim >= 3 and y.ndim >= 3:
        # batches: ATen's bmm of the batches expanded and folded (`core.bf16.reduced_bmm`)
        from ..core.bf16 import batched_matmul

        out = batched_matmul(x, y)
        if out is not None:
            return out
    if x.ndim == 2 and y.ndim == 1 and _increment_mv(x, y) and cpu.mkl_avx2():
        x, y = np.ascontiguousarray(x.T).T, np.ascontiguousarray(y)
    if x.ndim == 2 and y.ndim == 2:  # (a zero-step vector takes another of ATen's paths)
        if _broadcast_operand(x):
            x = np.ascontiguousarray(x)
        if _broadcast_operand(y):
            y = np.ascontiguousarray(y)
        x, y = _blas_operand(x), _blas_operand(y)
        if cpu.mkl_avx2():
            x, y = _increment_vector(x, y) or (x, y)
        if x.dtype == y.dtype == np.float32 and cpu.mkl_avx2():
            # PyTorch on an AVX2 processor: MKL's kernels there (`gemm_avx2`), where modelled
            from .gemm_avx2 import mm as mm_avx2

            out = mm_avx2(x, y)
            if out is not None:
                return out
        if x.dtype == y.dtype == np.float32 and min(x.shape[0], x.shape[1], y.shape[1]) >= 2:
            x, y = _aten_layouts(x, y)
    if (
        x.ndim == 1
        and y.ndim == 1
        and x.dtype == y.dtype
        and x.dtype.kind == "f"
        and x.shape == y.shape
        and x.flags.c_contiguous
        and y.flags.c_contiguous
    ):
        # two vectors: ATen's dot, MKL's ?dot and its order of fused steps (strided vectors
        # take MKL's other paths, whose order is not measured: NumPy's below)
        from ..core.mkldot import dot

        return dot(x, y)
    if (
        x.ndim == 2
        and y.ndim == 1
        and x.dtype == y.dtype == np.float32
        and y.flags.c_contiguous
        and cpu.mkl_avx2()
    ):
        # mv: MKL's gemv on an AVX2 processor (`gemm_avx2`), where modelled
        from .gemm_avx2 import mm as mm_avx2

        out = mm_avx2(x, y[:, None])
        if out is not None:
            return out[:, 0]
    if (
        x.ndim > 2
        and y.ndim == 1
        and x.dtype == y.dtype
        and x.dtype.kind == "f"
        and x.shape[-1] == y.shape[0]
        and math.prod(x.shape[:-1]) > 0
    ):
        # PyTorch folds the leading axes into the rows of one mv (`should_fold`): the
        # matrix-vector kernel's order for every row
        flat = np.ascontiguousarray(x).reshape(-1, x.shape[-1])
        return _matmul_fwd(flat, y).reshape(x.shape[:-1])
    if x.ndim == 1 and y.ndim == 2 and x.dtype == np.float32 and y.dtype == np.float32:
        # PyTorch's matmul makes the vector a row (unsqueeze, mm, squeeze): the one-row
        # kernels' order, as nn.Linear on a single sample computes it
        return _matmul_fwd(x[None, :], y)[0]
    if (
        x.ndim > 2
        and y.ndim == 2
        and x.dtype == y.dtype
        and x.dtype in (np.float32, np.float64)
        and x.shape[-1] > 0
    ):
        # PyTorch folds the leading axes into the rows (one mm on a row-major copy): the
        # same kernels, the same order (float64 too: the batched order differed from the
        # fifth row of a (2, 5, 8) @ (8, 24) on the zen4 family)
        lead = x.shape[:-1]
        if y.shape[0] == x.shape[-1] and math.prod(lead) > 0:
            flat = np.ascontiguousarray(x).reshape(-1, x.shape[-1])
            return _matmul_fwd(flat, y).reshape(*lead, y.shape[1])
    if x.ndim == 2 and y.ndim > 2 and x.dtype == y.dtype == np.float32 and x.shape[0] > 0:
        # a matrix that requires grad times a batch (`arithmetic._bmm_route` expands the
        # others): PyTorch folds the batch, transposed, into the rows of one mm with the
        # matrix transposed, (y^T folded @ x^T)^T
        lead, k = y.shape[:-2], y.shape[-2]
        if x.shape[1] == k and math.prod(lead) * y.shape[-1] > 0:
            flat = np.ascontiguousarray(np.swapaxes(y, -1, -2)).reshape(-1, k)
            out = _matmul_fwd(flat, x.T).reshape(*lead, y.shape[-1], x.shape[0])
            return np.ascontiguousarray(np.swapaxes(out, -1, -2))
    if _batched_both(x, y):
        out = _bmm_fwd(x, y)
        if out is not None:
            return out
    if _blocked(x, y):
        return _mm_float32(x, y)
    if cpu.mkl_avx2() and x.dtype == y.dtype == np.float64 and _avx2_64(x, y):
        # MKL's dgemm on an AVX2 processor: other kernels by the shape (`gemm_avx2.mm64`)
        from .gemm_avx2 import mm64

        return mm64(x, y)
    if _blocked64(x, y):
        return _mm_float64(x, y)
    gemv = _gemv64(x, y)
    if gemv is not None:
        # each output one dot product of a contiguous row and a contiguous vector: MKL's
        # dgemv dot-product kernel's order (`_dot_rows64`)
        a, v = gemv
        if cpu.mkl_avx2():  # (this family's dgemv kernels, `gemm_avx2.gemv64`)
            from .gemm_avx2 import gemv64, storage_offset

            out = gemv64(a, v, storage_offset(a))
        else:
            out = _dot_rows64(a, v)
        if x.ndim == 1 or y.ndim == 1:
            return out
        return out[:, None] if a is x else out[None, :]
    if x.ndim == 2 and y.ndim == 1 and x.T.flags.c_contiguous and _row64(y, x.T):
        # a transposed row-major matrix times a vector (`A.t() @ g`, the gradient of `A @ v`):
        # the same column kernel as `g @ A` (measured: 60 products, every element equal)
        if cpu.mkl_avx2():
            from .gemm_avx2 import column64

            return column64(y, x.T)
        return _fma64_chain(y[None, :], x.T)[0]
    if (
        cpu.mkl_avx2()
        and x.ndim == y.ndim == 2
        and y.shape[1] == 1
        and x.T.flags.c_contiguous
        and _row64(y[:, 0], x.T)
    ):
        # the same times one column of its own (mm: `g.t() @ x`, nn.Linear(1, n)'s weight
        # gradient): on this family the same column kernel (measured on PyTorch 2.13: 200
        # random shapes, 2 to 60 rows, inner sizes 2 to 400, every element equal; NumPy's
        # order 0 of 200)
        from .gemm_avx2 import column64

        return column64(y[:, 0], x.T)[:, None]
    if _row64(x, y):
        if cpu.mkl_avx2():  # (this family's column kernel adds rounded products in order)
            from .gemm_avx2 import column64

            out = column64(x.reshape(-1), y)
            return out[None, :] if x.ndim == 2 else out
        # one row (or a vector) times a row-major float64 matrix: MKL's column kernel, each
        # output the chain of fused multiply-adds over k in order, from zero, for every inner
        # size (measured on PyTorch 2.13: mm, a vector's matmul, 2 to 200 columns, inner sizes
        # 2 to 3,000, every element equal; a transposed matrix, x @ w.t(), is not this order)
        out = _fma64_chain(x.reshape(1, -1), y)
        return out[0] if x.ndim == 1 else out
    if cpu.mkl_avx2() and _one_dot64(x, y):
        # one row times one contiguous column, float64 (mm; a vector times k x 1): on this
        # family the rounded products added in order (measured: 400 random inner sizes to 400)
        from .gemm_avx2 import column64

        out = column64(x.reshape(-1), y.reshape(-1, 1))
        return out.reshape(np.matmul(x[..., :1], y[:1]).shape)
    dot = _one_dot(x, y)
    if dot is not None:
        # one row times one column (mm, mv, a vector times a matrix of one column; not dot)
        row, col = x.reshape(1, -1), y.reshape(-1)
        with np.errstate(all="ignore"):
            if dot == "left":
                out = _gemv_left(row, col, 2)
            elif dot == "strided":
                out = _gemv_n_strided(col, row.T)
            else:
                out = _fma_chain(row, col[:, None])
        return out.reshape(np.matmul(x[..., :1], y[:1]).shape)
    if (
        x.ndim == 2
        and y.ndim == 2
        and x.dtype == np.float32
        and y.dtype == np.float32
        and y.shape[1] >= 2
        and y.flags.f_contiguous
        and x.flags.c_contiguous
        and _few_rows_t(*x.shape, y.shape[1])
    ):
        return _mm_float32_few_rows_t(x, y)
    if _gemv_mirrored(x, y):
        out = _gemv_float32(x, y.reshape(-1))
        return out if y.ndim == 1 else out[:, None]
    if _narrow_chain(x, y):
        # one row times columns, or rows (x transposed) times one column: the same kernel,
        # the outputs along the columns of `b` (m, outputs), `v` the row or the column; the
        # row or column whose elements are apart in memory (as ATen hands it to MKL) takes
        # the column kernel's other order (`_gemv_n_strided`)
        if x.ndim == 1 or x.shape[0] == 1:
            v, b = x.reshape(-1), y
        else:
            v, b = y.reshape(-1), x.T
        out = _gemv_n_strided(v, b) if _strided_vector(x, y) else _gemv_n(v, b)
        return out.reshape(np.matmul(x[..., :1], y[:1]).shape)
    k = x.shape[-1]
    x2 = x[None, :] if x.ndim == 1 else x
    y2 = y[:, None] if y.ndim == 1 else y
    try:
        batch = np.broadcast_shapes(x2.shape[:-2], y2.shape[:-2])
    except ValueError:
        return np.matmul(x, y)  # NumPy's own error, which `apply` reports
    shape = (*batch, x2.shape[-2], y2.shape[-1])
    work = math.prod(shape) * k
    integer = x.dtype.kind in "iu" and y.dtype.kind in "iu"
    if work <= (INT_PIECE if integer else FLOAT_PIECE):
        return np.matmul(x, y)
    dtype = np.result_type(x, y)
    if integer and _bound(x) * _bound(y) * k <= EXACT:
        # Every partial sum is an integer within float64's exact range: BLAS in float64 gives
        # the exact product (in any order of summation), then NumPy's integer type (wrapping,
        # as an integer product would, for a narrower one).
        out = _in_pieces(x2.astype(np.float64), y2.astype(np.float64), shape, FLOAT_PIECE, work)
        out = out.astype(np.int64).astype(dtype, copy=False)
    else:
        piece = INT_PIECE if integer else FLOAT_PIECE
        out = _in_pieces(x2, y2, shape, piece, work)
    if x.ndim == 1:
        out = out.reshape(out.shape[:-2] + out.shape[-1:])
    if y.ndim == 1:
        out = out.reshape(out.shape[:-1])
    return out


# Batched products (both operands with batch axes: torch.bmm, and matmul, which expands the
# batches, folds them into one and calls bmm), as PyTorch 2.13's CPU bmm computes them (ATen's
# `bmm_out_or_baddbmm_`): when m * k * n (one matrix's rows, inner size, columns) is below 400,
# a plain loop, each element summed in the order of k from zero, every product and every sum
# rounded to the dtype (no fused steps), whatever the layouts; otherwise MKL's batched gemm,
# which gives each matrix what `mm` gives it (measured: float32 and float64, batches 1-16, sizes
# 1-64, operands transposed or not, every element equal) for 2 rows and 2 columns or more. With
# one row or one column MKL's batched gemm is not mm's gemv (below); in the layouts not
# measured there, and past `_BMM_MAX_BATCH` matrices, NumPy's BLAS computes (see
# tests/surface/data/bmm).
_BMM_SMALL = 400
# A bmm of two or more matrices of one row or one column (vmap's batching rule for a vector
# times a matrix, a batch of x @ v), past the plain loop, measured on PyTorch 2.13 (probes
# whose partial sums cancel, then random shapes: batches 2 to 5, inner sizes 2 to 1,500, rows
# or columns 2 to 150, row-major matrices, every element equal): one row times a matrix is
# MKL's column kernel of mm (`_gemv_n`); a matrix times one column is each row's chain of
# fused steps in MKL's blocks of the inner size (`_mm_float32`), not mm's gemv. A batch of
# one matrix is mm's (`_matmul_fwd`).
_BMM_MAX_BATCH = 4096


def _batched_both(x: np.ndarray, y: np.ndarray) -> bool:
    return (
        x.ndim >= 3
        and y.ndim >= 3
        and x.dtype == y.dtype
        and x.dtype in (np.float32, np.float64)
        and x.shape[-1] == y.shape[-2]
    )


def _bmm_fwd(x: np.ndarray, y: np.ndarray, out_at: int = 0) -> np.ndarray | None:
    """`x @ y` for float32 or float64 operands with batch axes in PyTorch's order (see above),
    or None where NumPy's order is kept (the batches do not broadcast, one row or column past
    the plain loop, too many matrices). `out_at`: the elements between an aligned start and
    the result's first (a result written into a buffer, `matmul(..., out=buf[i])`); the avx2
    family's small kernels split by the address of each matrix of the result."""
    try:
        batch = np.broadcast_shapes(x.shape[:-2], y.shape[:-2])
    except ValueError:
        return None
    (m, k), n = x.shape[-2:], y.shape[-1]
    count = math.prod(batch)
    if count == 0 or m == 0 or n == 0 or k == 0:
        return None
    dtype = x.dtype.type
    if m * k * n < _BMM_SMALL:
        # k < 400 passes over the whole result (up to the elements limit: the clock is read
        # before each), each a product and a sum rounded apart
        acc = np.zeros((*batch, m, n), dtype)
        with np.errstate(all="ignore"):
            for i in range(k):
                hooks.observer.check_clock()
                acc += x[..., :, i, None] * y[..., None, i, :]
        return acc
    if count > _BMM_MAX_BATCH:
        return None
    # as matmul hands them to bmm: expanded to the common batches and folded into one axis, a
    # view where one can be made (NumPy's rule is PyTorch's), else a row-major copy, made here
    # one matrix at a time (the whole copy can be far larger than the operands)
    xs, x_copy = _folded(x, batch, count)
    ys, y_copy = _folded(y, batch, count)
    if (m < 2 or n < 2) and count > 1 and dtype in (np.float32, np.float64) and cpu.mkl_avx2():
        flagged = _bmm_transposed_vector(xs, ys, x_copy, y_copy, count, out_at)
        if flagged is not None:
            return flagged.reshape(*batch, m, n)
    narrow = None
    small_avx2 = (
        (m < 2 or n < 2)
        and count > 1
        and dtype is np.float32
        and (x_copy or _row_major(x))
        and (y_copy or _row_major(y))
        and cpu.mkl_avx2()
    )
    if small_avx2:
        # MKL's batched gemm of one row or column on an AVX2 processor: the small kernel,
        # split by where each result lies in the batch (`gemm_avx2`; measured: batches 2 to
        # 5, row-major operands, every element equal)
        from .gemm_avx2 import _small

        out = np.empty((count, m, n), dtype)
        with np.errstate(all="ignore"):
            for b in range(count):
                hooks.observer.check_clock()
                xb = np.ascontiguousarray(xs[b]) if x_copy else xs[b]
                yb = np.ascontiguousarray(ys[b]) if y_copy else ys[b]
                out[b] = _small(xb, yb, None, out_at + b * m * n)
        return out.reshape(*batch, m, n)
    if m < 2 or n < 2:
        # the layouts from the operands' own strides (broadcasting and folding make a size-1
        # axis's step 0); a copy is row-major
        if dtype is np.float32:
            narrow = _bmm_narrow(x_copy or _row_major(x), y_copy or _row_major(y), m, n)
        if narrow is None and count > 1:
            return None
    if dtype is np.float32 and count > 1 and not (x_copy or y_copy) and cpu.mkl_avx2():
        # the chain kernel's matrices all at once (the same bits as one by one, below)
        from .gemm_avx2 import mm_batch

        out = mm_batch(xs, ys)
        if out is not None:
            return out.reshape(*batch, m, n)
    out = np.empty((count, m, n), dtype)
    for b in range(count):
        hooks.observer.check_clock()
        xb = np.ascontiguousarray(xs[b]) if x_copy else xs[b]
        yb = np.ascontiguousarray(ys[b]) if y_copy else ys[b]
        if narrow is not None and count > 1:
            out[b] = narrow(xb, yb)
        elif dtype is np.float32 and m > 1 and n > 1 and cpu.mkl_avx2():
            # MKL's batched gemm on an AVX2 processor: each matrix mm's kernels, the small
            # ones split by where the matrix lies in the batch (`gemm_avx2`)
            from .gemm_avx2 import mm as mm_avx2

            r = mm_avx2(xb, yb, out_at=out_at + b * m * n, x_at=b * m * k if x_copy else None)
            out[b] = _matmul_fwd(xb, yb) if r is None else r
        elif dtype is np.float64 and m > 1 and n > 1 and cpu.mkl_avx2() and _avx2_64(xb, yb):
            # dgemm's kernels, the small one's peeled rows by the matrix's address (measured:
            # the 9 x 9 and 23 x 23 matrices of a batch, every element equal)
            from .gemm_avx2 import mm64

            out[b] = mm64(xb, yb, out_at=out_at + b * m * n)
        else:
            out[b] = _matmul_fwd(xb, yb)
    return out.reshape(*batch, m, n)


def _bmm_transposed_vector(
    xs: Any, ys: Any, x_copy: bool, y_copy: bool, count: int, out_at: int
) -> np.ndarray | None:
    """A float32 or float64 bmm of two or more matrices on the AMD families (MKL's AVX2 code)
    whose one column (or one row) ATen hands MKL as a transposed operand: its elements one
    element apart but its own step not one element, as `w.t()` of a row w lies (vmap's
    batching rule for `x @ w.t()` with w batched: a bmm with such columns). Measured on
    PyTorch 2.13, Zen 4 (tests/ops/data/record_bmm_flagged.py): row-major x (two rows or
    more) times such a column is the small dot kernel's (`_dots`, `_dots64` in float64; x's
    rows from where each matrix lies), not the row-major column's; such a float32 row times
    row-major y is the row-major row's small kernel. None for the other layouts (the
    callers' paths)."""
    from .gemm_avx2 import _dots, _dots64, _small, storage_offset

    (m, k), n = xs[0].shape, ys[0].shape[1]
    dtype = xs[0].dtype
    item = dtype.itemsize
    with np.errstate(all="ignore"):
        if n == 1 and m >= 2 and k >= 2 and not y_copy:
            st = ys.strides
            if st[-2] == item and st[-1] < k * item and dtype == np.float64:
                # a row-major float64 column (`vmap(torch.mv)`): dgemm's products added in
                # order (measured alike, x row- or column-major)
                return _bmm_column64(xs, ys, x_copy, count, m)
            if not (st[-2] == item and st[-1] >= k * item):
                return None  # (a row-major column: the narrow kernels below)
            out = np.empty((count, m, 1), dtype)
            for b in range(count):
                hooks.observer.check_clock()
                xb = np.ascontiguousarray(xs[b]) if x_copy else xs[b]
                if not xb.flags.c_contiguous:
                    return None
                at = b * m * k if x_copy else storage_offset(xb)
                if dtype == np.float64:  # dgemm's dot kernel (measured alike)
                    out[b] = _dots64(xb, ys[b].T, 0, at)
                else:
                    out[b] = _dots(xb, ys[b].T, at)
            return out
        if m == 1 and n >= 2 and k >= 2 and not x_copy and dtype == np.float32:
            st = xs.strides
            if not (st[-1] == item and 0 < st[-2] < k * item) or not (y_copy or _row_major(ys)):
                return None  # (a row-major row: the small kernel below as well)
            out = np.empty((count, 1, n), np.float32)
            for b in range(count):
                hooks.observer.check_clock()
                yb = np.ascontiguousarray(ys[b]) if y_copy else ys[b]
                out[b] = _small(np.ascontiguousarray(xs[b]), yb, None, out_at + b * n)
            return out
    return None


def _bmm_column64(xs: Any, ys: np.ndarray, x_copy: bool, count: int, m: int) -> np.ndarray | None:
    """Each float64 matrix (row- or column-major) times its row-major column, as MKL's AVX2
    dgemm computes a batch of them: every product rounded, added in order from zero."""
    from .gemm_avx2 import _small64

    out = np.empty((count, m, 1))
    none = np.zeros(0, int)
    for b in range(count):
        hooks.observer.check_clock()
        xb = np.ascontiguousarray(xs[b]) if x_copy else xs[b]
        if not (xb.flags.c_contiguous or xb.T.flags.c_contiguous):
            return None
        out[b] = _small64(xb, ys[b], none)
    return out


def _row_major(a: np.ndarray) -> bool:
    """Whether ATen reads a's matrices as row-major (a transposed column is not a row). A
    size-1 axis with NumPy's step 0 (made by broadcasting or a new axis, where PyTorch's
    unsqueeze and expand keep a row-major step) counts as row-major."""
    st, item = a.strides, a.itemsize
    last = st[-1] == item or (a.shape[-1] == 1 and st[-1] == 0)
    return last and (st[-2] >= a.shape[-1] * item or (a.shape[-2] == 1 and st[-2] == 0))


def _bmm_narrow(x_rows: bool, y_rows: bool, m: int, n: int) -> Any:
    """How one matrix of a float32 bmm of two or more matrices with one row or one column,
    past the plain loop, is computed in MKL's batched order (see above `_BMM_SMALL`), both
    operands row-major; None where that is not mirrored (other layouts, one row and one
    column). A batch of one matrix is mm's whatever the layout."""
    if not (x_rows and y_rows):
        return None
    if m == 1 and n >= 2:
        return lambda xb, yb: _gemv_n(xb[0], yb)[None]
    if n == 1 and m >= 2:
        return _mm_float32
    return None


def _folded(a: np.ndarray, batch: tuple, count: int) -> tuple[np.ndarray, bool]:
    """`a` expanded to `batch` with its batch axes folded into one (count, rows, cols), as a
    view, and whether PyTorch's reshape copies it (then `a` is indexed through its expanded
    view, matrix by matrix, and each is to be made contiguous)."""
    shape = (*batch, *a.shape[-2:])
    # (broadcast only where needed: NumPy's broadcast_to zeroes a size-1 axis's step, which
    # tells a transposed column `w.t()` from a row-major one, as ATen reads it)
    full = a if a.shape == shape else np.broadcast_to(a, shape)
    try:
        return np.reshape(full, (count, *a.shape[-2:]), copy=False), False
    except ValueError:
        idx = np.array(list(np.ndindex(*batch))) if batch else np.zeros((1, 0), int)
        return _Indexed(full, idx), True


class _Indexed:
    """The matrices of an expanded view by their number in the folded batch."""

    def __init__(self, full: np.ndarray, idx: np.ndarray) -> None:
        self.full, self.idx = full, idx

    def __getitem__(self, b: int) -> np.ndarray:
        return self.full[tuple(self.idx[b])]


def _one_dot64(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether `x @ y` is a contiguous float64 row (1 x k or a vector) times a contiguous
    float64 column (k x 1): one dot product through mm."""
    if x.dtype != np.float64 or y.dtype != np.float64 or x.ndim not in (1, 2) or y.ndim != 2:
        return False
    if (x.ndim == 2 and x.shape[0] != 1) or y.shape[1] != 1 or x.shape[-1] != y.shape[0]:
        return False
    return x.shape[-1] >= 1 and x.strides[-1] == x.itemsize and y.strides[0] == y.itemsize


def _one_dot(x: np.ndarray, y: np.ndarray) -> str | None:
    """MKL's order for `x @ y` when it is a single dot product of float32 operands of 2 or
    more, one of them a matrix (1 x k times k x 1, 1 x k times a vector, a vector times k x 1;
    not torch.dot), by the layouts PyTorch hands to MKL, measured on PyTorch 2.13 (inner sizes
    2 to 2,000, every result equal): "left" (`_gemv_left` with two sets of lanes) for a column
    that is a transposed row, or a row of its own times a vector; "chain" (`_fma_chain`, one
    piece whatever the inner size) for a column whose rows are apart by a row's length (a k x 1
    matrix of its own, a column of a wider one) times a vector or a row of its own, or a row
    whose elements are apart times a vector; "strided" (`_gemv_n_strided`'s one output) for
    such a row (strides (1, s)) times a vector whose elements are apart; None for the other
    layouts."""
    if x.dtype != np.float32 or y.dtype != np.float32 or x.ndim > 2 or y.ndim > 2:
        return None
    if x.ndim == y.ndim == 1 or x.ndim == 0 or y.ndim == 0:
        return None
    if (x.ndim == 2 and x.shape[0] != 1) or (y.ndim == 2 and y.shape[1] != 1):
        return None
    k = x.shape[-1]
    if not (k == y.shape[0] and 2 <= k <= _GEMV_MAX_K):
        return None
    item = x.itemsize
    if y.ndim == 1:
        # (mv: ATen's gemv 'n' when the row is laid out as a column, `a.t()` for a of (k, 1),
        # its strides (1, 1): the column kernel's one output, the chain, or with a vector
        # whose elements are apart the strided kernel's (`_gemv_n_strided`); gemv 't'
        # otherwise, on a contiguous copy of a row whose elements are apart)
        if x.strides[0] == item:
            return "strided" if y.strides[0] >= 2 * item else "chain"
        return "left"
    if y.strides[0] == item and y.strides[1] >= k * item:
        return "left"  # a transposed row
    if x.ndim == 2 and x.strides[0] == item and x.strides[1] > item:
        if y.strides[1] == item and y.strides[0] > item:
            # a row laid out as a column, its elements apart (strides (1, s)), times a column
            # whose elements are apart: ATen's gemm 'N', 'T' with increments, the strided
            # kernel's one output (with the row's elements together, the chain below)
            return "strided"
    if y.strides[1] in (item, 0) and (x.ndim == 1 or x.strides[1] == item):
        return "chain"  # (the stride of a size-1 axis: NumPy's newaxis gives 0)
    return None


def _gemv_mirrored(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether `x @ y` is a single column whose order MKL's gemv kernel gives (see
    `_gemv_float32`): x float32 with 2 rows or more, each contiguous, y a float32 vector or
    one column, an inner size of 2 or more; a bounded amount of work."""
    return (
        x.ndim == 2
        and (y.ndim == 1 or (y.ndim == 2 and y.shape[1] == 1))
        and x.dtype == np.float32
        and y.dtype == np.float32
        and x.shape[0] >= 2
        and 2 <= x.shape[1] <= _GEMV_MAX_K
        and x.strides[1] == x.itemsize
        and x.shape[0] * max(x.shape[1], _LANES) <= _FMA_MAX_WORK  # the lanes: 16 a row
    )


def _narrow_chain(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether `x @ y` is one of the float32 products of MKL's column kernel (`_gemv_n`): one
    row (x a vector or a matrix of one row) times a row-major matrix of 2 columns or more, or 2
    rows or more, each down memory (a transposed matrix: `x.t() @ g`, the weight's gradient of
    nn.Linear(k, 1)), times one column."""
    if x.dtype != np.float32 or y.dtype != np.float32 or x.ndim > 2 or y.ndim > 2:
        return False
    if x.ndim == 0 or y.ndim == 0 or x.shape[-1] != y.shape[0] or x.shape[-1] == 0:
        return False
    if x.ndim == 1 or x.shape[0] == 1:
        # (y's rows may be apart, a slice of a wider matrix: MKL's leading dimension)
        ok = y.ndim == 2 and y.shape[1] >= 2 and y.strides[1] == y.itemsize
        ok = ok and (y.shape[0] == 1 or y.strides[0] >= y.shape[1] * y.itemsize)
    else:
        ok = (
            (y.ndim == 1 or y.shape[1] == 1)
            and x.ndim == 2
            and x.shape[0] >= 2
            and x.strides[0] == x.itemsize
        )
    cols = y.shape[1] if y.ndim == 2 else 1
    rows = x.shape[0] if x.ndim == 2 else 1
    return ok and rows * cols * x.shape[-1] <= _FMA_MAX_WORK


def _strided_vector(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether the row or column of a `_narrow_chain` product reaches MKL with its elements
    apart (an increment of 2 or more), as ATen's addmm hands it over: a row x (1, k) laid out
    as a transposed column (strides (1, s): `c[:, 1:].t()`), a column y (k, 1) with strides
    (s, 1) (`c[:, 1:2]`), or mv's vector y with a step s (`c[:, 1]`); s >= 2, k >= 2. ATen
    copies a row or column laid out otherwise into a contiguous one (increment 1)."""
    item = x.itemsize
    if x.ndim == 2 and x.shape[0] == 1:
        st, k = x.strides, x.shape[1]
        return k >= 2 and st[0] == item and st[1] >= 2 * item and st[1] % item == 0
    k = y.shape[0]
    if y.ndim == 1:
        return k >= 2 and y.strides[0] >= 2 * item and y.strides[0] % item == 0
    st = y.strides
    return k >= 2 and st[1] == item and st[0] >= 2 * item and st[0] % item == 0


def _bound(a: np.ndarray) -> int:
    """The largest magnitude in an integer array (exactly, as a Python int)."""
    return max(int(a.max()), -int(a.min())) if a.size else 0


def _in_pieces(
    x: np.ndarray, y: np.ndarray, shape: tuple[int, ...], piece: int, work: int
) -> np.ndarray:
    """`x @ y` (both at least 2-D; `shape` the result's) in slices along the result's longest
    axis, each about `piece` multiply-adds, the clock read before each. Along the longest axis
    one slice of the result is at most as much work as the size of an operand, so the pieces
    can always be made small."""
    out = np.empty(shape, dtype=np.result_type(x, y))
    axis = max(range(len(shape)), key=lambda i: shape[i])
    length = shape[axis]
    step = max(1, length // max(1, -(-work // piece)))
    nb = len(shape) - 2
    for start in range(0, length, step):
        hooks.observer.check_clock()
        part = slice(start, start + step)
        xs, ys = x, y
        if axis == nb:
            xs = x[..., part, :]
        elif axis == nb + 1:
            ys = y[..., part]
        else:
            xs = _batch_slice(x, axis, nb, part)
            ys = _batch_slice(y, axis, nb, part)
        out[(slice(None),) * axis + (part,)] = np.matmul(xs, ys)
    return out


def _batch_slice(a: np.ndarray, axis: int, nb: int, part: slice) -> np.ndarray:
    """`a` sliced along the result's batch axis `axis` (of `nb`), where it has that axis with
    more than one element (else it broadcasts, as it is)."""
    i = axis - (nb - (a.ndim - 2))
    if i < 0 or a.shape[i] == 1:
        return a
    return a[(slice(None),) * i + (part,)]


# Float32 matrix products as PyTorch's (MKL's sgemm, one thread) adds them, measured on PyTorch
# 2.13 for matrices of 2 rows and columns or more whose second operand is row-major, the first
# transposed or not (tens of thousands of shapes, every element tested equal): each element is
# a chain of fused multiply-adds in the order of k, from zero, when the inner size is 384 or
# less; past that MKL cuts the inner size in blocks (`_k_blocks`: 384 at a time while more than
# 768 are left, then the rest in two halves, the first the larger, when more than 384: 800 is
# 384 + 208 + 208; with a transposed second operand of 192 columns or more and more than 768
# inner, plain blocks of 384: 800 is 384 + 384 + 32), each block chained apart from zero and
# the blocks' sums added in order
# (found with inputs whose partial sums cancel, tests/surface/data/sgemm/probe.py; then
# random shapes with inner sizes to 4,000, every element equal). A transposed second
# operand, as in `x @ w.t()` and `F.linear` / nn.Linear, follows the same rule when the first
# operand is row-major with 16 rows or more and the inner size is 2 or more (random shapes:
# rows 16-256, columns 2-256, inner sizes 2-4,000); F.linear's bias is added to the product,
# rounded once, except where `linear_sum` says. With fewer rows MKL uses other kernels whose
# order depends on the shape (mirrored: see `_few_rows_kernel`), as with a single output
# column (gemv: see `_gemv_float32`). A batch of matrices times one matrix is folded into one
# product, as PyTorch's matmul does. Elsewhere (a vector operand, float64, batches of both
# operands, past the bound on work) NumPy's BLAS computes, which differs from MKL in the last
# bit of some elements.
_FMA_MAX_K = 1 << 16  # inner sizes measured up to 4,000; the bound on work binds first
_KC = 384
_PLAIN_MIN_N = 192
_FMA_MIN_ROWS_T = 16
_FMA_MAX_WORK = 1 << 24  # multiply-adds: beyond this, BLAS (a chain costs a pass per k)
# A blocked chain whose every block BLAS computes (`blas32`: proven on this machine) costs
# about what BLAS does, so it is mirrored to a far larger size (the bound above then only
# bounds the emulation where the proof fails): 2^32 is about a second in tiles of BLAS.
_BLAS_MAX_WORK = 1 << 32
_U64 = np.uint64


def _k_blocks(k: int, plain: bool = False, kc: int = _KC) -> list[tuple[int, int]]:
    """MKL's blocks of the inner size (see above): 384 at a time while more than 768 are left,
    then what is left in two halves (the first the larger) when more than 384, else whole;
    `plain`: 384 at a time to the end (the transposed second operand of 192 columns or more
    with more than 768 inner). `kc`: another block than 384 (dgemm's with a transposed second
    operand: 192)."""
    if plain and k > 2 * kc:
        return [(lo, min(lo + kc, k)) for lo in range(0, k, kc)]
    out = []
    lo = 0
    while k - lo > 2 * kc:
        out.append((lo, lo + kc))
        lo += kc
    if k - lo > kc:
        half = (k - lo + 1) // 2
        out.append((lo, lo + half))
        lo += half
    out.append((lo, k))
    return out


def _plain_blocks(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether MKL cuts the inner size of `x @ y` in plain blocks of 384: y transposed (w.t(),
    nn.Linear's product) with 192 columns or more (measured: 190 halves, 192 plain); y
    row-major (x row-major or transposed) with 192 rows and 192 columns or more (measured past
    2^24 multiply-adds, where it shows: 191 x 1000 x 192 and 192 x 1000 x 191 halves, 192 x
    1000 x 192 plain)."""
    if not y.flags.c_contiguous:
        return y.shape[1] >= _PLAIN_MIN_N
    return x.shape[0] >= _PLAIN_MIN_N and y.shape[1] >= _PLAIN_MIN_N


def _mm_float32(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    acc = None
    for part in _chain_blocks(x, y, _k_blocks(x.shape[1], _plain_blocks(x, y))):
        acc = part if acc is None else acc + part
    return acc


def _first_product_zeros(x: np.ndarray, y: np.ndarray, out: np.ndarray) -> np.ndarray:
    """MKL's gemm of inner size 1 (an outer product, `x.t() @ g` of one sample) gives each
    element its one product as it is, where a chain from +0 gives +0 for a -0 product: the
    weight gradient of a dead ReLU unit for a single sample shows `-0.` where the input is
    negative (measured on PyTorch 2.13: mm, addmm, nn.Linear; inner sizes 2 and more sum from
    +0, and so does the gemv of one row or column, and the fused attention kernel's products,
    which go their own way)."""
    if x.shape[1] != 1:
        return out
    zero = out == 0
    if not zero.any():
        return out
    return np.where(zero, x * y, out).astype(out.dtype, copy=False)


def _matmul_record(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The matmul record's forward: `_matmul_fwd`, with the signed zeros of MKL's gemm of inner
    size 1 (two rows and two columns or more, float32: `_first_product_zeros`)."""
    out = _matmul_fwd(x, y)
    if (
        x.ndim == 2
        and y.ndim == 2
        and x.shape[1] == 1
        and x.shape[0] >= 2
        and y.shape[1] >= 2
        and x.dtype == y.dtype == np.float32
    ):
        out = _first_product_zeros(x, y, out)
    return out


_CHAIN_STEP = 32  # k a pass of `_fma_chain` takes at most
_CHAIN_WORK = 1 << 15  # sums a pass keeps (256 KB of float64: within a core's own cache)
_I64_MIN = np.iinfo(np.int64).min
_CLOCK_WORK = 1 << 20  # fused steps between two readings of the clock (a few milliseconds)


def _fma_chain(x: np.ndarray, y: np.ndarray, start: np.ndarray | None = None) -> np.ndarray:
    """acc = fma(x[:, k], y[k], acc) for k in order, from zero (or float32 `start`, (m, n)),
    each correctly rounded to float32: by NumPy's BLAS where it is proven to compute this
    chain for the shape (`blas32`: 2 rows and columns or more, inner sizes 1 to 384, from
    zero), else emulated (`_fma_chain_emulated`)."""
    if start is None and x.ndim == 2 and y.ndim == 2:
        if (
            x.shape[0] == 1
            and y.shape[1] >= 2
            and 1 <= x.shape[1] <= blas32.MAX_K
            and x.dtype == y.dtype == np.float32
        ):
            # One row (`g.t() @ h` of nn.Linear(k, 1)'s gradient, the column kernel's last
            # columns): BLAS proves and computes products of 2 rows or more, so the row is
            # given a second row of zeros (each element's chain is its own row's and column's:
            # row 0 is the one-row chain, whichever computes it)
            two = np.zeros((2, x.shape[1]), np.float32)
            two[0] = x[0]
            out = blas32.chain(two, y, _fma_chain_emulated)
            if out is not None:
                return out[:1]
        out = blas32.chain(x, y, _fma_chain_emulated)
        if out is not None:
            return out
    return _fma_chain_emulated(x, y, start)


def _chain_blocks(x: np.ndarray, y: np.ndarray, blocks: list[tuple[int, int]]) -> list:
    """`_fma_chain` of each range of the inner size in `blocks` (from zero), in their order:
    by NumPy's BLAS where it is proven for every block (`blas32`), else all emulated at once
    (`_fma_chains`: a NumPy call does a step of every block)."""
    m, n = x.shape[0], y.shape[1]
    if (
        len(blocks) < 2
        or m < 2
        or (n >= 2 and blas32.all_proven(m, [hi - lo for lo, hi in blocks], n, _fma_chain_emulated))
    ):
        return [_fma_chain(x[:, lo:hi], y[lo:hi]) for lo, hi in blocks]
    return list(_fma_chains(x, y, blocks))


def _fma_chain_emulated(
    x: np.ndarray, y: np.ndarray, start: np.ndarray | None = None
) -> np.ndarray:
    """`_fma_chain` in NumPy, each step correctly rounded to float32 (`_fma32`): `_fma_chains`
    of one block."""
    acc = None if start is None else start.astype(np.float32)[None]
    return _fma_chains(x, y, [(0, x.shape[1])], acc)[0]


def _fma_chains(
    x: np.ndarray, y: np.ndarray, blocks: list[tuple[int, int]], acc: np.ndarray | None = None
) -> np.ndarray:
    """The chains of `_fma_chain` over the ranges `blocks` of the inner size, all at once:
    (len(blocks), m, n) float32, block b's chain over x[:, lo:hi] and y[lo:hi] from zero (or
    from `acc[b]`, float32); of a batch of matrices (x (batch, m, k), y (batch, k, n): bmm's),
    (batch, len(blocks), m, n), each matrix's blocks (the blocks of them all together).

    Each step is `_fma32`'s correctly rounded fused multiply-add in two NumPy calls over every
    block's (m, n) sums: the exact float64 product plus the float32 sum, in float64, then
    rounded to float32. Rounded twice, that is the fused result unless the float64 sum is a
    float32 midpoint (its low 29 bits a one and zeros; then the first rounding may have made
    the tie): a pass keeps its float64 sums and, where one is, that element's steps of the
    pass are done again by `_fma32` from the sum it started from (kept: the passes write into
    two buffers in turn; its chain is its own, the others' stand). A pass takes as many k as
    keep its sums in a core's cache (`_CHAIN_WORK`); a step does every block's (the blocks in
    the order of their lengths, each one's operands in a zero-padded copy: those still going
    are a leading slice of every array). Bits: `tests/ops/test_fma_chains.py`; speed:
    `benchmarks/matmul_avx2.py` (two to five times the one block at a time before)."""
    if x.ndim == 2:  # (one matrix: a batch of one)
        start = None if acc is None else acc[None]
        return _fma_chains(x[None], y[None], blocks, start)[0]
    m, n = x.shape[1], y.shape[2]
    if m > n:
        # each element's chain is its own: the products' last axis the longer side (NumPy's
        # calls over many short rows cost more), the result row-major as PyTorch's
        tr = None if acc is None else acc.swapaxes(-1, -2)
        out = _fma_chains(y.swapaxes(1, 2), x.swapaxes(1, 2), blocks, tr)
        return np.ascontiguousarray(out.swapaxes(-1, -2))
    mn = m * n
    groups = [(i, lo, hi) for i in range(x.shape[0]) for lo, hi in blocks]
    nblocks = len(groups)
    if not mn:
        return np.zeros((x.shape[0], len(blocks), m, n), np.float32)
    order = sorted(range(nblocks), key=lambda g: groups[g][1] - groups[g][2])  # (stable)
    lens = [groups[g][2] - groups[g][1] for g in order]
    longest = lens[0] if nblocks else 0
    out = np.empty((nblocks, m, n), np.float32)
    if acc is None:
        acc = np.zeros(nblocks * mn, np.float32)
    else:
        acc = np.array(acc.reshape(nblocks, m, n)[order], np.float32).reshape(-1)
    going = sum(1 for length in lens if length > 0)
    out[going:] = acc[going * mn :].reshape(-1, m, n)  # (empty blocks: their start)
    if not longest:
        return out[np.argsort(order)].reshape(x.shape[0], len(blocks), m, n)
    if nblocks == 1:  # (k, 1, m) and (k, 1, n): exact
        xs = np.ascontiguousarray(x[0].T, np.float64)[:, None]
        ys = np.ascontiguousarray(y[0], np.float64)[:, None]
    else:  # (longest, blocks, m) and (longest, blocks, n), zero past a block's end
        xs = np.zeros((longest, nblocks, m))
        ys = np.zeros((longest, nblocks, n))
        for g, j in enumerate(order):
            i, lo, hi = groups[j]
            xs[: hi - lo, g] = x[i, :, lo:hi].T
            ys[: hi - lo, g] = y[i, lo:hi]
    bufs = [acc, np.empty(nblocks * mn, np.float32)]
    steps = min(_CHAIN_STEP, max(1, _CHAIN_WORK // (going * mn)))
    sums = np.empty(steps * going * mn)
    lo, since = 0, _CLOCK_WORK
    with np.errstate(all="ignore"):
        while lo < longest:
            nb = going
            hi = lo + min(steps, longest - lo)
            if since >= _CLOCK_WORK:  # a large chain takes a second: the limit binds inside
                hooks.observer.check_clock()
                since = 0
            since += (hi - lo) * nb * mn
            flat = sums[: (hi - lo) * nb * mn].reshape(hi - lo, nb * mn)
            xp, yp = xs[lo:hi, :nb, :, None], ys[lo:hi, :nb, None, :]
            np.multiply(xp, yp, out=flat.reshape(hi - lo, nb, m, n))  # the exact products
            going = sum(1 for length in lens if length > hi - 1)  # (those of the last step)
            src, dst = bufs
            if going == nb:
                a, d = src[: nb * mn], dst[: nb * mn]
                for s in flat:  # (flat arrays: NumPy's calls on them cost least)
                    np.add(s, a, out=s)  # (the float32 sums are exact in float64)
                    d[...] = s
                    a = d
            else:  # (a block ends inside the pass: the products past it are zeros, not added)
                active = [sum(1 for length in lens if length > j) * mn for j in range(lo, hi)]
                a = src
                for s, na in zip(flat, active):
                    s = s[:na]
                    np.add(s, a[:na], out=s)
                    dst[:na] = s
                    a = dst
            # a float32 midpoint's low 29 bits shifted to the top: the one pattern that reads
            # as int64's least value
            bits = flat.view(_U64)
            np.left_shift(bits, _U64(35), out=bits)
            if bits.view(np.int64).min() == _I64_MIN:
                # the elements that met one (mostly sums that were exact: ties rounded right)
                # done again through the pass, each step by `_fma32`
                hit = np.flatnonzero((bits.view(np.int64) == _I64_MIN).any(axis=0))
                g, rest = np.divmod(hit, mn)
                i, c = np.divmod(rest, n)
                a = src[hit]
                for t in range(hi - lo):
                    on = hit < sum(1 for length in lens if length > lo + t) * mn
                    p = xs[lo + t, g[on], i[on]] * ys[lo + t, g[on], c[on]]  # (exact)
                    a[on] = _fma32(p, a[on])
                dst[hit] = a
            going = sum(1 for length in lens if length > hi)
            out[going:nb] = dst[going * mn : nb * mn].reshape(nb - going, m, n)
            bufs.reverse()
            lo = hi
    if nblocks > 1:
        out = out[np.argsort(order)]
    return out.reshape(x.shape[0], len(blocks), m, n)


# Float64 products as MKL's dgemm adds them, measured on PyTorch 2.13 (exact rational
# arithmetic as the reference): for 2 rows and columns or more, the second operand row-major
# and the first row-major or transposed, each element is the chain of fused multiply-adds in
# the order of k, from zero, in the inner blocks of sgemm (`_k_blocks`: 385 is 193 + 192, 800
# is 384 + 208 + 208), the blocks' sums added in order (random shapes, rows and columns 2 to
# 150, inner sizes 2 to 1,000, every element equal). NumPy has no fused multiply-add: each
# step is emulated exactly (`_fma64_chain`), some twenty NumPy calls a k, so the work and the
# inner size are bounded (`_FMA64_MAX_WORK`, `_FMA64_MAX_K`), and the operands' magnitudes
# kept where the emulation is exact (zero or 2^-400 to 2^400, finite); elsewhere NumPy's BLAS
# computes, as before. (Within the bound, 192 rows and columns come with an inner size of 3
# or less: sgemm's plain blocks cannot arise.) A transposed second operand (x @ w.t(), F.linear's
# product) with the first row-major of 16 rows or more is the same chain in blocks of 192
# (`_KC64_T`, the same halving rule: 500 is 192 + 154 + 154; measured likewise); with fewer
# rows (MKL's other kernels), other layouts, or one row or column the order is not
# measured: NumPy's.
_FMA64_MAX_WORK = 1 << 17  # (about 120 ns a multiply-add: 16 ms at most)
# ... and a run's products (these chains and `_gemv64`'s) spend at most this many emulated
# multiply-adds (a few seconds; the budget is spent before the operands' range is checked):
# a float64 training loop (a PINN's double backward) goes on in NumPy's order past it, said
# once on stderr, rather than run into the time limit at 100x PyTorch's time
RUN_WORK64 = 1 << 25


def _afford64(work: int) -> bool:
    """Whether the emulated chains may spend `work` multiply-adds more in this run."""
    return hooks.afford(
        "fma64",
        work,
        RUN_WORK64,
        "float64 matrix products past 33,554,432 multiply-adds in a run are computed in "
        "NumPy's order, not PyTorch's (MKL's): the last bits of their results can differ "
        "from PyTorch's from here on",
        "smaller inputs or fewer steps keep PyTorch's order (it is ~50x slower to mirror)",
    )


_KC64_T = 192  # dgemm's inner block with a transposed second operand (x @ w.t(), 16 rows up)
_FMA64_MAX_K = 1 << 11  # the steps a k cost whatever the size (about 25 us each): 50 ms
_SPLIT = 134217729.0  # 2^27 + 1: Veltkamp's split of a float64 into two halves of 26 bits
_SAFE_LO, _SAFE_HI = 2.0**-400, 2.0**400


def _blocked64(x: np.ndarray, y: np.ndarray) -> bool:
    if x.ndim != 2 or y.ndim != 2 or x.dtype != np.float64 or y.dtype != np.float64:
        return False
    (m, k), n = x.shape, y.shape[1]
    if not (m >= 2 and n >= 2 and k >= 1):
        return False
    if m * n * k > _FMA64_MAX_WORK or k > _FMA64_MAX_K:
        return False
    if y.flags.c_contiguous:
        if not (x.flags.c_contiguous or x.flags.f_contiguous):
            return False
    elif not (y.flags.f_contiguous and x.flags.c_contiguous and m >= _FMA64_MIN_ROWS_T):
        return False
    return _afford64(m * n * k) and _exact64(x) and _exact64(y)


def _avx2_64(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether the avx2 family's float64 kernels (`gemm_avx2.mm64`) compute `x @ y`, within
    the bounds on the emulation's work (`_blocked64`'s)."""
    from .gemm_avx2 import models64

    if not models64(x, y):
        return False
    (m, k), n = x.shape, y.shape[1]
    if m * n * k > _FMA64_MAX_WORK or k > _FMA64_MAX_K:
        return False
    return _afford64(m * n * k) and _exact64(x) and _exact64(y)


# `x @ w.t()` in float64 is dgemm's chain (blocks of 192, F.linear's bias as beta) from 4 rows
# (measured on PyTorch 2.13: 4 to 15 rows, inner sizes 1 to 2,000, 2 to 100 columns, mm and
# F.linear, every element equal; 2 and 3 rows take other kernels, not mirrored)
_FMA64_MIN_ROWS_T = 4


def _gemv64(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The rows and the vector of a float64 product whose outputs are each one dot product in
    MKL's dgemv kernel (see `_dot_rows64`), or None: a matrix of contiguous rows times a
    contiguous vector or column (not a single row times a column of its own: one dot product
    through mm, another kernel), or a contiguous row or vector times a transposed row-major
    matrix (`x @ w.t()`, F.linear of one sample)."""
    if x.dtype != np.float64 or y.dtype != np.float64 or x.ndim > 2 or y.ndim > 2:
        return None
    if x.ndim == 0 or y.ndim == 0 or x.shape[-1] != y.shape[0] or y.shape[0] < 1:
        return None
    k = y.shape[0]
    if k > _FMA64_MAX_K:
        return None
    if x.ndim == 2 and x.flags.c_contiguous and x.shape[0] >= 1:
        column = y.ndim == 1 or (y.shape[1] == 1 and (x.shape[0] >= 2 or y.ndim == 1))
        if column and y.strides[0] == y.itemsize and x.size <= _GEMV64_MAX:
            ok = cpu.mkl_avx2() or (_afford64(x.size) and _exact64(x) and _exact64(y))
            return (x, y.reshape(-1)) if ok else None
    one_row = x.ndim == 1 or x.shape[0] == 1
    if one_row and x.strides[-1] == x.itemsize and y.ndim == 2 and y.shape[1] >= 1:
        w = y.T  # (n, k), its rows contiguous when y is w.t() of a row-major w
        # (w.t() of a row-major w; one column: its strides tell it from a column of its own,
        # whose single dot product through mm is another kernel)
        transposed = not y.flags.c_contiguous or (
            y.shape[1] == 1 and y.strides[1] == k * y.itemsize and k > 1
        )
        if w.flags.c_contiguous and transposed and w.size <= _GEMV64_MAX:
            ok = cpu.mkl_avx2() or (_afford64(w.size) and _exact64(x) and _exact64(w))
            return (w, x.reshape(-1)) if ok else None
    return None


_GEMV64_MAX = 1 << 20  # elements of the matrix (a fused step is ~25 us on a few lanes a row)


def _dot_rows64(a: np.ndarray, v: np.ndarray) -> np.ndarray:
    """a @ v (a (m, k) float64, v (k,)) in the order of MKL's dgemv dot-product kernel,
    measured on PyTorch 2.13 (AVX-512, one thread; inner sizes 1 to 2,047, 1 to 100 rows,
    `A @ v`, `A @ col`, `x @ w.t()`, F.linear of one sample, 188 products, every element
    equal; the order read from sums that cancel, as FPRev does): four accumulators of four
    lanes take the products in blocks of 16 (accumulator j the k = 4j .. 4j + 3 of each block,
    fused), then the first and third and the second and fourth are added lane by lane; the
    products after the whole blocks go 4 at a time into those two sums in turn (fused, the
    last block partial); each of the two is added by halves (lanes 0 + 2 and 1 + 3, then the
    two), and the two sums added."""
    from ..core.fma64 import _fma64

    m, k = a.shape
    acc = [np.zeros((m, 4)) for _ in range(4)]
    i = 0
    with np.errstate(all="ignore"):
        while k - i >= 16:
            hooks.observer.check_clock()
            for j in range(4):
                lo = i + 4 * j
                acc[j] = _fma64(a[:, lo : lo + 4], v[None, lo : lo + 4], acc[j])
            i += 16
        pair = [acc[0] + acc[2], acc[1] + acc[3]]
        turn = 0
        while i < k:
            e = min(i + 4, k)
            pair[turn][:, : e - i] = _fma64(a[:, i:e], v[None, i:e], pair[turn][:, : e - i])
            i, turn = e, 1 - turn
        sums = [(p[:, :2] + p[:, 2:]) for p in pair]
        return (sums[0][:, 0] + sums[0][:, 1]) + (sums[1][:, 0] + sums[1][:, 1])


def _row64(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether `x @ y` is one contiguous float64 row (or vector) times a row-major float64
    matrix of two columns or more (see `_matmul_fwd`), within the bound on the chain's work."""
    if x.dtype != np.float64 or y.dtype != np.float64 or y.ndim != 2:
        return False
    if not (x.ndim == 1 or (x.ndim == 2 and x.shape[0] == 1)):
        return False
    (k, n) = y.shape
    if x.shape[-1] != k or k < 1 or n < 2 or not y.flags.c_contiguous:
        return False
    if x.strides[-1] != x.itemsize or k * n > _FMA64_MAX_WORK or k > _FMA64_MAX_K:
        return False
    return cpu.mkl_avx2() or (_afford64(k * n) and _exact64(x) and _exact64(y))


def _exact64(a: np.ndarray) -> bool:
    """Whether every element is zero or finite within 2^-400 to 2^400 in magnitude (products
    and their errors then neither overflow nor fall below the normal range)."""
    v = np.abs(a)
    with np.errstate(invalid="ignore"):
        return bool(np.all((v == 0) | ((v >= _SAFE_LO) & (v <= _SAFE_HI))))


def _mm_float64(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    acc = None
    kc = _KC if y.flags.c_contiguous else _KC64_T
    for lo, hi in _k_blocks(x.shape[1], kc=kc):
        part = _fma64_chain(x[:, lo:hi], y[lo:hi])
        acc = part if acc is None else acc + part
    return acc


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """s = a + b rounded and its exact error e (a + b = s + e)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _fma64_chain_from(x: np.ndarray, y: np.ndarray, acc: np.ndarray) -> np.ndarray:
    """`_fma64_chain` of an inner size of 1 starting from `acc` (m, n): fma(x, y, acc)."""
    a, b = x[:, :1], y[:1]
    ph = a * b
    t = _SPLIT * a
    ah = t - (t - a)
    al = a - ah
    t = _SPLIT * b
    bh = t - (t - b)
    bl = b - bh
    pl = ((ah * bh - ph) + ah * bl + al * bh) + al * bl
    return _fma64_sum(ph, pl, acc)


def _fma64_chain(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """acc = fma(x[:, k], y[k], acc) for k in order, from zero, each step correctly rounded to
    float64 (operands within `_exact64`'s range): the exact product as two floats (Veltkamp and
    Dekker), its sum with acc as two (TwoSum), the two low parts added rounded to odd and the
    result rounded once (Boldo and Melquiond's emulation of the fused multiply-add)."""
    m, k, n = x.shape[0], x.shape[1], y.shape[1]
    acc = np.zeros((m, n))
    with np.errstate(all="ignore"):
        for lo in range(0, k, _CHAIN_STEP):
            hooks.observer.check_clock()
            hi = min(lo + _CHAIN_STEP, k)
            a = np.ascontiguousarray(x.T[lo:hi])[:, :, None]  # (step, m, 1)
            b = y[lo:hi, None, :]  # (step, 1, n)
            ph = a * b
            t = _SPLIT * a
            ah = t - (t - a)
            al = a - ah
            t = _SPLIT * b
            bh = t - (t - b)
            bl = b - bh
            pl = ((ah * bh - ph) + ah * bl + al * bh) + al * bl  # exact: a * b = ph + pl
            for uh, ul in zip(ph, pl):
                acc = _fma64_sum(uh, ul, acc)
    return acc


def _fma64_sum(uh: np.ndarray, ul: np.ndarray, c: np.ndarray) -> np.ndarray:
    """(uh + ul) + c rounded once to float64, uh + ul an exact product (see `_fma64_chain`)."""
    th, tl = _two_sum(c, uh)
    v, e = _two_sum(tl, ul)
    odd = (e != 0) & ((v.view(np.int64) & 1) == 0)
    if odd.any():  # rounded to odd: the neighbour toward the exact sum
        v[odd] = np.nextafter(v[odd], np.where(e[odd] > 0, np.inf, -np.inf))
    return th + v


def _fma32(p: np.ndarray, acc: np.ndarray) -> np.ndarray:
    """fma: `p + acc` correctly rounded to float32, for products `p` of two float32 numbers
    (exact in float64) and float32 `acc`. The sum is rounded to float64 and then to float32,
    which is wrong only when the first rounding lands on a float32 midpoint; those elements
    are rounded again from the sum's exact error."""
    c = acc.astype(np.float64)
    s = p + c
    out = s.astype(np.float32)
    mid = (s.view(_U64) & _U64(0x1FFFFFFF)) == _U64(0x10000000)
    if mid.any():
        sm, pm, cm = s[mid], p[mid], c[mid]
        bb = sm - pm
        err = (pm - (sm - bb)) + (cm - bb)
        out[mid] = np.where(err != 0, np.nextafter(sm, np.copysign(np.inf, err)), sm).astype(
            np.float32
        )
    return out


# `x @ w.t()` (nn.Linear's product, x row-major, w row-major) with 1 to 15 rows, where MKL's
# sgemm picks its kernel by the shape, measured on PyTorch 2.13 (AVX-512, one thread): grids of
# every shape with rows 2-15, columns 2-13 and inner sizes 1-40, then rows 2-15 with inner
# sizes to 1,500 and columns to 64, then random shapes (see tests/surface/data/sgemm), every
# element equal. Each element is a dot product of its row of x and its row of w, over 16
# lanes (lane l fuses the products k = l, l + 16, l + 32, ... in order into its sum, from
# zero) or as the chain of `_fma_chain`; which one, and how the lanes are added, by the shape
# (m rows, n columns, k the inner size):
# - 2 rows or more and k >= 24 m: the lanes; then the 16 added as 4 rows of 4
#   (t_j = ((l_j + l_j+4) + l_j+8) + l_j+12) and (t_0 + t_1) + (t_2 + t_3) (`_quads`);
# - else 2 columns, or 3 columns with at most 10 rows: the lanes added by halves (8 + 8,
#   4 + 4, 2 + 2, 1 + 1, `_lane_halves`); the even rows (0, 2, ...) keep two sets of 16 lanes
#   (k = l, 32 + l, ... and 16 + l, 48 + l, ...) while 32 products or more are left, added
#   lane by lane before the last ones are fused into them, the odd rows one set;
# - else 4 to 11 columns, fewer rows than columns and k <= n: the lanes by halves;
# - else the chain (fused multiply-adds in the order of k, from zero).
# With one row: the columns in whole groups of 4 are MKL's one-row kernel (`_lanes_dot`: the
# first product alone, then 16 lanes from k = 1, added by halves, and the products after the
# whole blocks of 16 again from that sum), the columns after them as the rows left after the
# groups of 4 of the single-column kernel (`_gemv_left`: the first and third two sets of lanes,
# the second one). Larger sizes (past `_FMA_MAX_WORK`) go to NumPy's BLAS.
_LANES = 16
_FEW_MAX_N = 1024  # columns measured up to here


def _few_rows_kernel(m: int, k: int, n: int) -> str | None:
    """MKL's kernel for `x @ w.t()` with these sizes (see above), or None where not mirrored."""
    if not (1 <= m < _FMA_MIN_ROWS_T and k >= 1 and 2 <= n <= _FEW_MAX_N):
        return None
    if m * n * max(k, _LANES) > _FMA_MAX_WORK:
        return None
    if m == 1:
        return "row"
    if k >= 24 * m:
        return "quads"
    if n == 2 or (n == 3 and m <= 10):
        return "pairs"
    if 4 <= n <= 11 and m < n and k <= n:
        return "halves"
    return "chain"


def _few_rows_t(m: int, k: int, n: int) -> bool:
    """Whether MKL's order for `x @ w.t()` with these sizes is mirrored (see above)."""
    return _few_rows_kernel(m, k, n) is not None


def _mm_float32_few_rows_t(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    m, k = x.shape
    n = y.shape[1]
    kind = _few_rows_kernel(m, k, n)
    w = y.T  # (n, k), its rows contiguous
    with np.errstate(all="ignore"):
        if kind == "chain":
            return _fma_chain(x, y)
        if kind == "quads":
            return _quads(_row_lanes(x, w, 1))
        if kind in ("halves", "pairs") and k <= _LANES:
            # one block of lanes: the even rows' two sets of lanes are the one set (fewer than
            # 32 products), and the lanes past k are zeros (`_few_lane_halves`)
            return _few_lane_halves(x, w)
        if kind == "halves":
            return _lane_halves(_row_lanes(x, w, 1))
        if kind == "pairs":
            out = _lane_halves(_row_lanes(x, w, 1))
            out[0::2] = _lane_halves(_row_lanes(x[0::2], w, 2))
            return out
        out = np.empty((1, n), np.float32)
        main = n - n % 4
        if main:
            p = x[0].astype(np.float64)[:, None] * w[:main].T.astype(np.float64)  # (k, n)
            out[0, :main] = _lanes_dot(p)
        if main < n:
            out[0, main + 1 : main + 2] = _gemv_left(w[main + 1 : main + 2], x[0], 1)
            out[0, main:n:2] = _gemv_left(w[main:n:2], x[0], 2)
    return out


def _row_lanes(x: np.ndarray, w: np.ndarray, sets: int) -> np.ndarray:
    """The 16 lanes of each element of `x @ w.T` (x (m, k), w (n, k)): lane l the fused sum of
    the products k = l, l + 16, ... in order, from zero; with 2 sets, two sets of lanes take
    alternate blocks of 16 while 32 products or more are left, added lane by lane, and the last
    products are fused into that. float32 (m, n, 16)."""
    m, k = x.shape
    if sets == 1 and k <= _LANES:
        # One block into zero lanes: fma(x, w, +0) is the exact product (float64) plus +0
        # (an exact -0 becomes +0; a product too small for float32 keeps its sign) rounded
        # once to float32
        acc = np.zeros((m, w.shape[0], _LANES), np.float32)
        p = x.astype(np.float64)[:, None, :] * w.astype(np.float64)[None, :, :]
        p += 0.0
        acc[..., :k] = p
        return acc
    xs, ws = x.astype(np.float64), w.astype(np.float64)
    accs = [np.zeros((m, w.shape[0], _LANES), np.float32) for _ in range(sets)]

    def fuse(acc: np.ndarray, lo: int, hi: int) -> None:
        p = xs[:, None, lo:hi] * ws[None, :, lo:hi]  # exact
        acc[..., : hi - lo] = _fma32(p, acc[..., : hi - lo])

    s = 0
    while sets > 1 and k - s >= sets * _LANES:
        for i in range(sets):
            fuse(accs[i], s + i * _LANES, s + (i + 1) * _LANES)
        s += sets * _LANES
    acc = accs[0]
    for other in accs[1:]:
        acc = acc + other
    for lo in range(s, k, _LANES):
        if lo % 512 == 0:
            hooks.observer.check_clock()
        fuse(acc, lo, min(lo + _LANES, k))
    return acc


def _few_lane_halves(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """`_lane_halves(_row_lanes(x, w, 1))` for k <= 16: the lanes are the products rounded
    once (plus +0), the lanes past k zeros. Adding a zero lane changes a value only by the
    sign of a zero, so the halves are taken over the first L lanes (L the power of two from
    k) and +0 added once at the end when L < 16 (as the levels with zero halves add it): the
    same bits, NaNs and infinities included, in a few NumPy calls instead of a dozen."""
    m, k = x.shape
    lanes = 1 << (k - 1).bit_length()
    p = x.astype(np.float64)[:, None, :] * w.astype(np.float64)[None, :, :]
    p += 0.0
    if lanes == k:
        acc = p.astype(np.float32)
    else:
        acc = np.zeros((m, w.shape[0], lanes), np.float32)
        acc[..., :k] = p
    while acc.shape[-1] > 1:
        h = acc.shape[-1] // 2
        acc = acc[..., :h] + acc[..., h:]
    out = acc[..., 0]
    if lanes < _LANES:
        out = out + np.float32(0)
    return out


def _lane_halves(acc: np.ndarray) -> np.ndarray:
    """The lanes (the last axis) added by halves, in float32."""
    while acc.shape[-1] > 1:
        h = acc.shape[-1] // 2
        acc = acc[..., :h] + acc[..., h:]
    return acc[..., 0]


def _quads(acc: np.ndarray) -> np.ndarray:
    """16 lanes (the last axis) added as 4 rows of 4, then the 4 sums in pairs, in float32."""
    t = acc[..., 0:4] + acc[..., 4:8]
    t = t + acc[..., 8:12]
    t = t + acc[..., 12:16]
    return (t[..., 0] + t[..., 1]) + (t[..., 2] + t[..., 3])


def _halves(v: np.ndarray) -> np.ndarray:
    """The lanes (the first axis) added by halves, in float32."""
    while v.shape[0] > 1:
        h = v.shape[0] // 2
        v = v[:h] + v[h:]
    return v[0]


def _lanes_dot(p: np.ndarray) -> np.ndarray:
    """One row's products `p` (k, n) summed as MKL's one-row kernel does (see above)."""
    k, n = p.shape
    r = p[0].astype(np.float32)
    whole = (k - 1) // _LANES * _LANES
    for lo, hi in ((1, 1 + whole), (1 + whole, k)):
        if hi <= lo:
            continue
        acc = np.zeros((_LANES, n), np.float32)
        acc[0] = r
        for start in range(lo, hi, _LANES):
            part = p[start : min(start + _LANES, hi)]
            acc[: len(part)] = _fma32(part, acc[: len(part)])
        r = _halves(acc)
    return r


# A single output column (`x @ w.t()` with w of one row: nn.Linear(k, 1), the last layer of a
# regression; likewise `x @ v` with a vector v), where MKL's sgemm hands the product to a
# gemv-like kernel, measured on PyTorch 2.13 (AVX-512, one thread; 450 random shapes, rows 2
# to 1,000, inner sizes 2 to 4,096, and a few up to 4,003 rows or 65,536 inner: every element
# of F.linear, `x @ w.t()` and `x @ w[0]` equal, with F.linear's bias added after, rounded
# once; the rows contiguous, one after the other or apart). Each element is a
# dot product over 16 lanes, and which one depends on the row's place: rows in whole groups
# of 4 (rows 0-3, 4-7, ...) put the first product alone in lane 0 and fuse the next ones into
# the lanes (lane l takes k = 1 + l, 17 + l, ... of the whole blocks of 16), add the lanes by
# halves (8 + 8, 4 + 4, 2 + 2, 1 + 1), then the k left after the whole blocks again starting
# from that sum (as MKL's one-row kernel of `_lanes_dot`). The rows left after the groups of 4
# (at most 3) start the lanes from zero, fuse the products from k = 1 into them, add them by
# halves and then add the first product, rounded, last; the second of those rows keeps one
# set of 16 lanes, the first and third keep two (k = 1 + l, 33 + l, ... and 17 + l, 49 + l,
# ... while 32 or more products are left), added lane by lane before the last (fewer than 32)
# products are fused into them. A single row (the whole product being one dot product) uses
# yet another order, not mirrored; x transposed (its rows' elements apart) goes through the
# column kernel of `_gemv_n`.
_GEMV_ROWS = 4

# The narrow products around nn.Linear(k, 1)'s gradients, measured on PyTorch 2.13 (one
# thread; 1,100 random shapes, inner sizes 1 to 3,000, outputs 2 to 300, every element
# equal): a row times a row-major matrix (`g.t() @ x`, `v @ x`) and a transposed matrix times a
# column or a vector (`x.t() @ g`) go through one kernel, vectorised along the outputs. The
# outputs past the last multiple of 16 (all of them for 15 or fewer) are each the chain of
# fused multiply-adds in the order of k, from zero, for every inner size (no halves past 384,
# unlike `_mm_float32`). The others take the inner size in blocks of 8 (k = i .. i + 7):
# a = fma(p[i], p[i + 2]) + fma(p[i + 1], p[i + 3]) (the later product of each pair rounded
# first), the sum so far s = fma(p[i + 4], fma(p[i + 6], s)), then s + fma(p[i + 5], p[i + 7]),
# then s + a; the k after the whole blocks are fused into s in order.
_GEMV_BLOCK = 8
# The same kernel for a row or column whose elements are apart (MKL's increment of 2 or more:
# `c[:, 1:].t() @ x`, `x.t() @ c[:, 1:2]`, the weight's gradient of nn.Linear(k, 1) through a
# slice or torch.cat), measured on PyTorch 2.13 (probes whose partial sums cancel, then 160
# random shapes, inner sizes 1 to 5,000, outputs 1 to 150, increments 2 to 5, every element
# equal): the outputs in whole groups of 16 are each the chain of fused multiply-adds in the
# order of k, from zero; the ones after them take the inner size in blocks of 4 (k = i ..
# i + 3): s = fma(p[i], fma(p[i + 2], s)), then s + fma(p[i + 1], p[i + 3]) (the later product
# rounded first), and the k after the whole blocks are fused into s in order.
_GEMV_STRIDED = 4
_GEMV_PIECE = 1 << 18  # products formed at once, over 8: blocks of 8 rows times outputs
_GEMV_MAX_K = 1 << 16  # measured up to here


def _gemv_float32(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """`x @ w` for float32 x (m >= 2 rows, each contiguous) and a float32 vector w, in MKL's
    order (see above); float32 (m,)."""
    m = x.shape[0]
    main = m - m % _GEMV_ROWS
    out = np.empty(m, np.float32)
    with np.errstate(all="ignore"):
        if main:
            out[:main] = _gemv_grouped(x[:main], w)
        if main < m:
            out[main + 1 : main + 2] = _gemv_left(x[main + 1 : main + 2], w, 1)
            out[main:m:2] = _gemv_left(x[main:m:2], w, 2)
    return out


def _gemv_n(v: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`v @ b` for a float32 vector v (m,) and a float32 matrix b (m, n), in the order of MKL's
    column kernel (see `_GEMV_BLOCK`); float32 (n,)."""
    return _gemv_n_from(v, b, None)


def _gemv_n_from(v: np.ndarray, b: np.ndarray, start: np.ndarray | None) -> np.ndarray:
    """`start + v @ b` as MKL's column kernel adds it with beta = 1 (its sums start from the
    float32 `start` (n,), not from zero: slow_conv2d's bias); None: from zero (`_gemv_n`)."""
    m, n = b.shape
    main = n - n % _LANES
    out = np.empty(n, np.float32)
    if main < n:
        rest = None if start is None else start[None, main:]  # (None: the chain from zero)
        out[main:] = _fma_chain(v[None, :], b[:, main:], rest)[0]
    if not main:
        return out
    vs = v.astype(np.float64)[:, None]
    s = np.zeros(main, np.float32) if start is None else start[:main].astype(np.float32)
    whole = m - m % _GEMV_BLOCK
    with np.errstate(all="ignore"):
        step = _GEMV_BLOCK * max(1, _GEMV_PIECE // main)
        for lo in range(0, whole, step):
            hi = min(lo + step, whole)
            p = (vs[lo:hi] * b[lo:hi, :main].astype(np.float64)).reshape(-1, _GEMV_BLOCK, main)
            r = p.astype(np.float32)
            a = _fma32(p[:, 0], r[:, 2]) + _fma32(p[:, 1], r[:, 3])
            d = _fma32(p[:, 5], r[:, 7])
            s = _gemv_blocks(p[:, 4], p[:, 6], d, a, s)
        for k in range(whole, m):
            s = _fma32(vs[k] * b[k, :main].astype(np.float64), s)
    out[:main] = s
    return out


def _gemv_n_strided(v: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`v @ b` for a float32 vector v (m,) whose elements MKL reads apart (an increment of 2 or
    more, see `_strided_vector`) and a float32 matrix b (m, n), in the order of MKL's column
    kernel for such a vector (see `_GEMV_STRIDED`); float32 (n,)."""
    m, n = b.shape
    main = n - n % _LANES
    out = np.empty(n, np.float32)
    if main:
        out[:main] = _fma_chain(np.ascontiguousarray(v)[None, :], b[:, :main])[0]
    if main == n:
        return out
    vs = v.astype(np.float64)[:, None]
    s = np.zeros(n - main, np.float32)
    whole = m - m % _GEMV_STRIDED
    with np.errstate(all="ignore"):
        step = _GEMV_STRIDED * max(1, _GEMV_PIECE // (n - main))
        for lo in range(0, whole, step):
            hooks.observer.check_clock()
            hi = min(lo + step, whole)
            p = (vs[lo:hi] * b[lo:hi, main:].astype(np.float64)).reshape(-1, 4, n - main)
            d = _fma32(p[:, 1], p[:, 3].astype(np.float32))
            s = _gemv_blocks(p[:, 0], p[:, 2], d, None, s)
        for k in range(whole, m):
            s = _fma32(vs[k] * b[k, main:].astype(np.float64), s)
    out[main:] = s
    return out


def _gemv_blocks(
    p4: np.ndarray, p6: np.ndarray, d: np.ndarray, a: np.ndarray | None, s: np.ndarray
) -> np.ndarray:
    """The column kernel's running sum over its blocks of 8 (see `_GEMV_BLOCK`): for each
    block j, s = fma(p4[j], fma(p6[j], s)), then s + d[j], then s + a[j] (float32; a None:
    no third sum, the strided kernel's blocks of 4, `_GEMV_STRIDED`). The fused
    steps are first done as `_fma_chain_emulated` does them, each sum rounded through float64
    (two NumPy calls, not `_fma32`'s seven), the float64 sums kept: when none is a float32
    midpoint (the one case where the double rounding can be wrong) that is `_fma32`'s result,
    else the blocks are done again with `_fma32`."""
    start = s
    sums = np.empty((len(p4), 2) + s.shape, np.float64)
    for j in range(len(p4)):
        t = np.add(p6[j], s, out=sums[j, 0])  # (s's float32 values are exact in float64)
        s = np.add(p4[j], t.astype(np.float32), out=sums[j, 1]).astype(np.float32)
        s = s + d[j]
        if a is not None:
            s = s + a[j]
    if ((sums.view(_U64) & _U64(0x1FFFFFFF)) == _U64(0x10000000)).any():
        s = start
        for j in range(len(p4)):
            s = _fma32(p4[j], _fma32(p6[j], s))
            s = s + d[j]
            if a is not None:
                s = s + a[j]
    return s


def _products(x: np.ndarray, w: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """The products x[:, lo:hi] * w[lo:hi], exact in float64."""
    return x[:, lo:hi].astype(np.float64) * w[lo:hi].astype(np.float64)


def _row_halves(v: np.ndarray, used: int = _LANES) -> np.ndarray:
    """The lanes (the last axis) added by halves, in float32. `used`: the lanes past it are
    zeros, which change a sum only by the sign of a zero: the halves are taken over the first
    power of two of lanes from `used` and +0 added once at the end when that is fewer (as the
    levels with zero halves add it; see `_few_lane_halves`)."""
    lanes = min(v.shape[1], 1 << (max(used, 1) - 1).bit_length())
    short = lanes < v.shape[1]
    v = v[:, :lanes]
    while v.shape[1] > 1:
        h = v.shape[1] // 2
        v = v[:, :h] + v[:, h:]
    return v[:, 0] + np.float32(0) if short else v[:, 0]


def _gemv_grouped(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    m, k = x.shape
    r = _products(x, w, 0, 1)[:, 0].astype(np.float32)
    whole = (k - 1) // _LANES * _LANES
    for lo, hi in ((1, 1 + whole), (1 + whole, k)):
        if hi <= lo:
            continue
        acc = np.zeros((m, _LANES), np.float32)
        acc[:, 0] = r
        for s in range(lo, hi, _LANES):
            e = min(s + _LANES, hi)
            acc[:, : e - s] = _fma32(_products(x, w, s, e), acc[:, : e - s])
        r = _row_halves(acc, hi - lo)  # (the lanes past hi - lo are zeros)
    return r


def _gemv_left(x: np.ndarray, w: np.ndarray, sets: int) -> np.ndarray:
    m, k = x.shape
    accs = [np.zeros((m, _LANES), np.float32) for _ in range(sets)]
    s = 1
    while k - s >= sets * _LANES:
        for i in range(sets):
            lo = s + i * _LANES
            accs[i] = _fma32(_products(x, w, lo, lo + _LANES), accs[i])
        s += sets * _LANES
    acc = accs[0]
    for other in accs[1:]:
        acc = acc + other
    for lo in range(s, k, _LANES):
        e = min(lo + _LANES, k)
        acc[:, : e - lo] = _fma32(_products(x, w, lo, e), acc[:, : e - lo])
    return _products(x, w, 0, 1)[:, 0].astype(np.float32) + _row_halves(acc)


# What each node matmul records shows (mm, mv, dot: a batched product keeps none gradcli
# shows): an input is saved for the other input's gradient, its sizes always, its strides
# for its own.
_MM = V.saves(
    mat2=V.arg(1, V.needs(0)),  # (PyTorch saves mat2 first: saved_tensors_hooks' order)
    self=V.arg(0, V.needs(1)),
    self_sym_sizes=V.sizes(0),
    self_sym_strides=V.strides(0),
    mat2_sym_sizes=V.sizes(1),
    mat2_sym_strides=V.strides(1),
)
_MATMUL_SAVED = {
    "MmBackward0": _MM,
    "MvBackward0": V.saves(self=V.arg(0, V.needs(1)), vec=V.arg(1, V.needs(0))),
    "DotBackward0": V.saves(self=V.arg(0, V.needs(1)), tensor=V.arg(1, V.needs(0))),
}


matmul = defop(
    "matmul",
    _matmul_record,
    _matmul_vjp,
    "MmBackward0",
    "g @ y^T, x^T @ g",
    saved=lambda n: _MATMUL_SAVED.get(n.name()),
    kind="linalg",
    jvp=_matmul_jvp,
    # (`mm(self_t, mat2_p) + mm(self_p, mat2_t)`, and mv's, dot's, bmm's)
    jvp_terms=((0, (1,)), (1, (0,))),
    signature="x @ y, matmul(x, y), mm, mv, dot, bmm",
    samples=tuple(
        Sample(s)
        for s in (
            ((3,), (3,)),
            ((2, 3), (3,)),
            ((3,), (3, 4)),
            ((2, 3), (3, 4)),
            ((2, 2, 3), (3, 4)),
            ((2, 3), (2, 3, 4)),
            ((3,), (2, 3, 4)),
            ((2, 2, 3), (3,)),
            ((2, 1, 2, 3), (3, 3, 2)),
            ((1, 2, 3), (2, 3, 2)),
        )
    ),
    to_torch="{0} @ {1}",
    to_jax="{0} @ {1}",
    jvp_reads_primal=True,
    complex="rule",  # (`_matmul_vjp`: the conjugate operand, as PyTorch's rules)
)


# --- einsum ---------------------------------------------------------------------------------
#
# The record's `spec` is `(inputs, output)`: one tuple of integer labels per operand (one label
# per axis; a label repeated within an operand takes its diagonal) and the output's labels
# (distinct, each one an input's). The surface turns PyTorch's subscripts ('ij,jk->ik', '...',
# implicit output) into this form, with every label's size equal wherever it appears (it
# expands size-1 axes that broadcast first). Contraction goes left to right, two operands at a
# time, each operand first summed over the labels no later step needs, and every intermediate
# result is checked against the tensor-elements limit before it is made: 'a,b,c,d->abcd' on
# vectors of 1000 is refused before anything is allocated.


def _sizes(shapes: list[tuple[int, ...]], labels: tuple[tuple[int, ...], ...]) -> dict[int, int]:
    sizes: dict[int, int] = {}
    for shape, ls in zip(shapes, labels):
        for n, lab in zip(shape, ls):
            if sizes.setdefault(lab, n) != n:
                raise ValueError(f"einsum(): label {lab} has sizes {sizes[lab]} and {n}")
    return sizes


def _count(ls: Any, sizes: dict[int, int]) -> int:
    total = 1
    for lab in ls:
        total *= sizes[lab]
    return total


def _compact(*groups: tuple[int, ...]) -> list[list[int]]:
    """The label tuples renumbered 0, 1, 2... (NumPy's einsum takes labels below 52)."""
    table: dict[int, int] = {}
    out = []
    for g in groups:
        out.append([table.setdefault(lab, len(table)) for lab in g])
    if len(table) > 52:
        raise ValueError("einsum(): more than 52 distinct subscripts in one contraction")
    return out


def _einsum_pair(a: np.ndarray, la: tuple, b: np.ndarray | None, lb: tuple, keep: tuple):
    if b is None:
        summed = [lab for lab in dict.fromkeys(la) if lab not in keep]
        if a.dtype == np.float16 and summed:
            # (ATen's einsum sums an operand's own labels with its float16 sum kernel: the
            # diagonals first, exact, then `sum` over the labels left)
            first = tuple(dict.fromkeys(la))
            ca, cf = _compact(la, first)
            diag = np.einsum(a, ca, cf) if first != la else a
            total = P.sum.forward(diag, dim=tuple(first.index(lab) for lab in summed))
            rest = [lab for lab in first if lab not in summed]
            return np.transpose(total, [rest.index(lab) for lab in keep]) if rest else total
        ca, ck = _compact(la, keep)
        return np.einsum(a, ca, ck)
    ca, cb, ck = _compact(la, lb, keep)
    small = _einsum_bmm_small(a, la, b, lb, keep)
    if small is not None:
        return small
    return np.einsum(a, ca, b, cb, ck, optimize=len(keep) < len(set(la) | set(lb)))


def _bf16_kernel() -> bool:
    """Whether the op runs now as PyTorch's bfloat16 kernel (on float32 copies)."""
    from ..core import dtypes, vecloop

    return vecloop.REDUCED[0] == dtypes.BF16


def _bf16_einsum_modelled(ins: tuple, out: tuple) -> None:
    """Refuse a bfloat16 einsum other than one operand's permutation or diagonal, or two
    operands' product with one summed label (one bmm: `_einsum_bmm_small`), whose sums'
    order gradcli does not follow."""
    labels = [lab for ls in ins for lab in ls]
    summed = set(labels) - set(out)
    plain = all(len(set(ls)) == len(ls) for ls in ins)
    if len(ins) == 1 and not summed:
        return
    if len(ins) == 2 and len(summed) == 1 and plain and all(lab in labels for lab in out):
        (one,) = summed
        if all(one in ls for ls in ins) and all(
            lab in out for ls in ins for lab in ls if lab != one
        ):
            return
    from ..base.errors import NotSupported

    raise NotSupported(
        "this einsum of bfloat16 tensors is not supported by gradcli: it follows PyTorch's "
        "bfloat16 sums for two operands with one summed index (a matrix product) and for "
        "permutations only",
        hint="compute it in float32: torch.einsum(eq, a.float(), b.float()), or write the "
        "product with @",
    )


def _einsum_bmm_small(a: np.ndarray, la: tuple, b: np.ndarray, lb: tuple, keep: tuple):
    """Two operands as PyTorch's einsum contracts them (one bmm of the permuted operands): the
    labels of both that are kept are the batch, those of one the rows / columns, the one label
    summed the inner size (`_bmm_fwd`, the permuted views as PyTorch makes them: measured
    below the plain loop's bound, 'ij,jk->ik', 'bij,bkj->bik', 'bi,bi->b', 'i,i->', 'ij,j->i';
    past it in float32, 'i,ij->j', 'ij,j->i', 'ij,kj->ik', 'ji,jk->ik', 'bij,bjk->bik',
    'bi,bij->bj', 'bij,bj->bi', 'ik,jk->ij', every element equal). None elsewhere (more than
    one label summed, whose order is not measured; float64 past the plain loop, where NumPy's
    einsum is nearer MKL's than NumPy's matmul), where NumPy's einsum computes."""
    if a.dtype != b.dtype or a.dtype not in (np.float32, np.float64, np.float16):
        return None
    bf16 = a.dtype == np.float32 and _bf16_kernel()
    if len(set(la)) != len(la) or len(set(lb)) != len(lb) or len(set(keep)) != len(keep):
        return None
    summed = [lab for lab in la if lab in lb and lab not in keep]
    if len(summed) > 1 or any(lab not in keep for lab in la + lb if lab not in summed):
        return None
    sizes = dict(zip(la, a.shape)) | dict(zip(lb, b.shape))
    batch = [lab for lab in keep if lab in la and lab in lb]
    left = [lab for lab in keep if lab in la and lab not in lb]
    right = [lab for lab in keep if lab in lb and lab not in la]
    m, n = math.prod(sizes[x] for x in left), math.prod(sizes[x] for x in right)
    k = sizes[summed[0]] if summed else 1
    count = math.prod(sizes[x] for x in batch)
    if m * k * n == 0 or count == 0:
        return None
    half = a.dtype == np.float16
    if m * k * n >= _BMM_SMALL and a.dtype == np.float64 and not (n == 1 and cpu.mkl_avx2()):
        return None  # (float64: a column's bmm on the AMD families only, `_bmm_column64`)
    ax = a.transpose([la.index(x) for x in batch + left + summed]).reshape(count, m, k)
    bx = b.transpose([lb.index(x) for x in batch + summed + right]).reshape(count, k, n)
    if half or bf16:  # (float16, bfloat16: ATen's bmm, `core.bf16.reduced_bmm`)
        from ..core import dtypes
        from ..core.bf16 import reduced_bmm

        kind = dtypes.BF16 if bf16 else None
        out = reduced_bmm(_reshaped_steps(ax), _reshaped_steps(bx), dtype=kind)
        if bf16 and out is not None:
            out = out.astype(np.float32)
    else:
        out = _bmm_fwd(_reshaped_steps(ax), _reshaped_steps(bx))
    if out is None:
        return None
    order = batch + left + right
    out = out.reshape([sizes[x] for x in order])
    return out.transpose([order.index(x) for x in keep])


def _reshaped_steps(a: np.ndarray) -> np.ndarray:
    """`a` with the steps PyTorch's reshape gives its size-1 axes (the next axis's extent, one
    element at the end): einsum's reshaped operands, whose one column is row-major for bmm
    (measured: 'bij,bkj->bik' with k of size 1 is bmm's of a row-major column), not the
    permuted view's transposed one."""
    if 1 not in a.shape:
        return a
    st = list(a.strides)
    for d in range(a.ndim - 1, -1, -1):
        if a.shape[d] == 1:
            st[d] = a.itemsize if d == a.ndim - 1 else st[d + 1] * a.shape[d + 1]
    return np.lib.stride_tricks.as_strided(a, a.shape, tuple(st), writeable=False)


def contract(arrays: list[np.ndarray], ins: tuple, out: tuple) -> np.ndarray:
    """The einsum of `arrays` with labels `ins` into `out`, sizes checked before each step."""
    sizes = _sizes([a.shape for a in arrays], ins)
    limits.TENSOR_ELEMENTS.check(_count(out, sizes), "the result of einsum")
    ops = list(zip(arrays, ins))

    def needed(after: int) -> set[int]:
        s = set(out)
        for _, ls in ops[after:]:
            s.update(ls)
        return s

    # Each operand alone: its diagonals taken and the labels used nowhere else summed.
    reduced = []
    for i, (a, ls) in enumerate(ops):
        others = set(out)
        for j, (_, lj) in enumerate(ops):
            if j != i:
                others.update(lj)
        keep = tuple(dict.fromkeys(lab for lab in ls if lab in others))
        if keep != ls:
            a = _einsum_pair(a, ls, None, (), keep)
        reduced.append((a, keep))
    ops = reduced
    acc, lacc = ops[0]
    for i in range(1, len(ops)):
        b, lb = ops[i]
        later = needed(i + 1)
        keep = tuple(dict.fromkeys(lab for lab in lacc + lb if lab in later))
        limits.TENSOR_ELEMENTS.check(_count(keep, sizes), "an intermediate result of einsum")
        acc = _einsum_pair(acc, lacc, b, lb, keep)
        lacc = keep
    if lacc != tuple(out):
        acc = _einsum_pair(acc, lacc, None, (), tuple(out))
    return acc


def _einsum_fwd(*xs: np.ndarray, spec: tuple) -> np.ndarray:
    ins, out = spec
    if _bf16_kernel():
        _bf16_einsum_modelled(ins, out)
    r = contract(list(xs), ins, out)
    return r.astype(np.result_type(*xs), copy=False) if xs else r


def _fresh(spec: tuple, n: int) -> tuple[int, ...]:
    ins, out = spec
    top = max([lab for ls in ins for lab in ls] + list(out) + [-1]) + 1
    return tuple(range(top, top + n))


def _einsum_vjp(g: Tensor, out: Tensor, *xs: Tensor, spec: tuple) -> tuple:
    """The gradient of operand i is the einsum of g with the other operands into operand i's
    labels; a label of i that nothing else has comes from a vector of ones, and a repeated
    label (a diagonal) from an identity matrix that puts the gradient back on the diagonal."""
    ins, outl = spec
    nb = g.ndim - len(outl)
    batch = _fresh(spec, nb)
    spare = iter(range(batch[-1] + 1 if batch else _fresh(spec, 1)[0], 1 << 30))
    res: list[Tensor | None] = []
    for i, x in enumerate(xs):
        if not x.requires_grad:
            res.append(None)
            continue
        operands = [g] + [xs[j] for j in range(len(xs)) if j != i]
        labels = [batch + tuple(outl)] + [ins[j] for j in range(len(xs)) if j != i]
        present = {lab for ls in labels for lab in ls}
        target: list[int] = []
        seen: set[int] = set()
        for lab, n in zip(ins[i], x.shape):
            if lab in seen:
                new = next(spare)
                operands.append(Tensor(np.eye(n, dtype=x.dtype)))
                labels.append((lab, new))
                target.append(new)
                continue
            seen.add(lab)
            if lab not in present:
                operands.append(Tensor(np.ones(n, dtype=x.dtype)))
                labels.append((lab,))
                present.add(lab)
            target.append(lab)
        spec_i = (tuple(labels), batch + tuple(target))
        res.append(apply(einsum, *operands, spec=spec_i))
    return tuple(res)


def _einsum_jvp(dots: tuple, out: Tensor, *xs: Tensor, spec: tuple) -> Tensor | None:
    ins, outl = spec
    total = None
    for i, d in enumerate(dots):
        if d is None:
            continue
        nb = d.ndim - xs[i].ndim
        batch = _fresh(spec, nb)
        labels = tuple(batch + ins[j] if j == i else ins[j] for j in range(len(xs)))
        operands = [d if j == i else xs[j] for j in range(len(xs))]
        t = apply(einsum, *operands, spec=(labels, batch + tuple(outl)))
        total = t if total is None else total + t
    return total


def _einsum_sample(shapes: tuple, ins: tuple, out: tuple, **kw: Any) -> Sample:
    return Sample(shapes, {"spec": (ins, out)}, **kw)


def einsum_equation(spec: tuple) -> str:
    """An einsum record's spec as an equation string ('ij,jk->ik'), for export."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    ins, out = spec
    table: dict[int, str] = {}
    for ls in (*ins, out):
        for lab in ls:
            table.setdefault(lab, letters[len(table) % 52])
    terms = ["".join(table[lab] for lab in ls) for ls in ins]
    return ",".join(terms) + "->" + "".join(table[lab] for lab in out)


einsum = defop(
    "einsum",
    _einsum_fwd,
    _einsum_vjp,
    "EinsumBackward0",
    "einsum of g with the other operands into each operand's subscripts",
    # the operands (PyTorch saves them), never the result: it may be changed in place
    reads=lambda p: (False, None),
    kind="linalg",
    jvp=_einsum_jvp,
    # (of two operands, a product: `bmm(a_t, b) + bmm(a, b_t)` inside PyTorch's einsum)
    jvp_terms=((0, (1,)), (1, (0,))),
    signature="einsum(equation, *operands), tensordot(a, b, dims)",
    samples=(
        _einsum_sample(((2, 3), (3, 4)), ((0, 1), (1, 2)), (0, 2)),
        _einsum_sample(((2, 3),), ((0, 1),), (1, 0)),
        _einsum_sample(((2, 3),), ((0, 1),), ()),
        _einsum_sample(((3, 3),), ((0, 0),), ()),
        _einsum_sample(((3, 3),), ((0, 0),), (0,)),
        _einsum_sample(((3,), (4,)), ((0,), (1,)), (0, 1)),
        _einsum_sample(((2, 3, 4), (2, 4, 2)), ((0, 1, 2), (0, 2, 3)), (0, 1, 3)),
        _einsum_sample(((2, 3), (3, 4), (4,)), ((0, 1), (1, 2), (2,)), (0,)),
        _einsum_sample(((1, 2), (1, 2, 3), (1, 3)), ((0, 1), (2, 1, 3), (0, 3)), (0, 2)),
        _einsum_sample(((3, 3, 2),), ((0, 0, 1),), (1, 0)),
        _einsum_sample(((2, 3), (2, 3)), ((0, 1), (0, 1)), (1, 0)),
        _einsum_sample(((), (3,)), ((), (0,)), (0,)),
    ),
    to_torch=lambda w, a, p: f"torch.einsum({w.lit(einsum_equation(p['spec']))}, {', '.join(a)})",
    to_jax=lambda w, a, p: f"jnp.einsum({w.lit(einsum_equation(p['spec']))}, {', '.join(a)})",
)


# --- at::matmul on arrays (for vmap's batching rules) -----------------------------------------


def _folds(t1: np.ndarray, t2: np.ndarray, grad1: bool, grad2: bool) -> bool:
    """ATen's `should_fold(tensor1, tensor2)` for matmul without `out=`: fold the larger
    operand's leading axes into the rows of one mm / mv (rather than a bmm) when the other
    requires grad, or when the larger is the first and its leading axes fold as a view."""
    first_larger = t1.ndim >= t2.ndim
    big = t1 if first_larger else np.swapaxes(t2, -1, -2)
    small_dim = t2.ndim if first_larger else t1.ndim
    if not (big.ndim >= 3 and small_dim <= 2):
        return False
    if grad2 if first_larger else grad1:
        return True
    if t1.ndim == 2:
        return False
    if big.size == 0:
        return True
    st, sh = big.strides, big.shape
    return all(st[i] == st[i + 1] * sh[i + 1] for i in range(big.ndim - 2))


def unsqueeze_view(a: np.ndarray, d: int) -> np.ndarray:
    """`a.unsqueeze(d)` with PyTorch's stride for the new axis (the next axis's extent, 1 at
    the end), not NumPy's 0: ATen's fold decisions read it."""
    d = d % (a.ndim + 1)
    step = a.shape[d] * a.strides[d] if d < a.ndim else a.itemsize
    return np.lib.stride_tricks.as_strided(
        a,
        a.shape[:d] + (1,) + a.shape[d:],
        a.strides[:d] + (step,) + a.strides[d:],
        writeable=False,
    )


def aten_matmul(
    t1: np.ndarray, t2: np.ndarray, grad1: bool = False, grad2: bool = False
) -> np.ndarray:
    """`at::matmul(t1, t2)` as ATen's `_matmul_impl` dispatches it (dot, mv, mm, one folded mm
    or mv, or a bmm of the expanded and folded batches), each kernel gradcli's (`_matmul_fwd`,
    whose float32 orders are MKL's). `grad1` / `grad2`: whether the operand requires grad
    (ATen folds a batch into one mm then). The layouts are the arrays' own: a reshape that
    cannot be a view copies row-major, as PyTorch's."""
    d1, d2 = t1.ndim, t2.ndim
    if d1 <= 2 and d2 <= 2:
        if d1 == 1 and d2 == 2:
            return _matmul_fwd(unsqueeze_view(t1, 0), t2)[0]
        return _matmul_fwd(t1, t2)
    if _folds(t1, t2, grad1, grad2):
        transpose = d2 > d1
        a = np.swapaxes(t2, -1, -2) if transpose else t1
        b = (t1.T if d1 == 2 else t1) if transpose else t2
        lead = a.shape[:-1]
        folded = np.reshape(a, (math.prod(lead), a.shape[-1]))
        out = _matmul_fwd(folded, b)
        if b.ndim == 2:
            out = out.reshape(*lead, b.shape[1])
            return np.ascontiguousarray(np.swapaxes(out, -1, -2)) if transpose else out
        return out.reshape(lead)
    n = t1.shape[-2] if d1 > 1 else 1
    m1 = t1.shape[-1]
    m2 = t2.shape[-2] if d2 > 1 else t2.shape[0]
    p = t2.shape[-1] if d2 > 1 else 1
    b1, b2 = t1.shape[: max(d1 - 2, 0)], t2.shape[: max(d2 - 2, 0)]
    if d1 == 3 and d2 == 3 and b1[0] != b2[0]:
        if b1[0] == 1 and grad1:
            return aten_matmul(t1[0], t2, grad1, grad2)
        if b2[0] == 1 and grad2:
            return aten_matmul(t1, t2[0], grad1, grad2)
    batch = np.broadcast_shapes(b1, b2)
    count = math.prod(batch)
    e1 = np.reshape(_broadcast_kept(t1, (*batch, n, m1)), (count, n, m1))
    if d2 == 1:
        e2 = unsqueeze_view(np.reshape(np.broadcast_to(t2, (*batch, m2)), (count, m2)), 2)
    else:
        e2 = np.reshape(_broadcast_kept(t2, (*batch, m2, p)), (count, m2, p))
    out = _matmul_fwd(e1, e2)
    shape = (*batch, *((n,) if d1 > 1 else ()), *((p,) if d2 > 1 else ()))
    return out.reshape(shape)


def _broadcast_kept(a: np.ndarray, shape: tuple) -> np.ndarray:
    """`a` broadcast to `shape`, itself where it has that shape already (NumPy's broadcast_to
    zeroes a size-1 axis's step: the layout ATen reads, `w.t()` of a row, would be lost)."""
    return a if a.shape == shape else np.broadcast_to(a, shape)


# --- alpha * (x @ y): the product term of addmm, addmv, baddbmm with alpha != 1 -----------------


def _scaled_matmul_fwd(x: np.ndarray, y: np.ndarray, alpha: Any = 1) -> np.ndarray:
    p = _matmul_record(x, y)
    return np.multiply(p, np.asarray(alpha, dtype=p.dtype))  # (the number in the product's dtype)


def _scaled_matmul_vjp(g: Tensor, out: Tensor, x: Tensor, y: Tensor, alpha: Any = 1) -> tuple:
    """Each operand's gradient is the product's, scaled after: PyTorch's rules for addmm's
    mat1 / mat2 (mm_mat1_backward, mm_mat2_backward: maybe_multiply(grad.mm(mat2.t()), alpha)),
    addmv's and baddbmm's likewise; scaling g first rounds otherwise."""
    return tuple(t if t is None else _times_scalar(t, alpha) for t in _matmul_vjp(g, None, x, y))


def _times_scalar(t: Tensor, alpha: Any) -> Tensor:
    # (`* alpha`, a Scalar in C++: PyTorch's mul.Scalar node, MulBackward1)
    return scale(t, alpha)


def _scaled_matmul_jvp(dots: tuple, out: Tensor, x: Tensor, y: Tensor, alpha: Any = 1) -> Tensor:
    """alpha * (dx @ y) + alpha * (x @ dy): each product scaled, then added (addmm's formula)."""
    dx, dy = dots
    a = _times_scalar(_matmul_jvp((dx, None), out, x, y), alpha) if dx is not None else None
    b = _times_scalar(_matmul_jvp((None, dy), out, x, y), alpha) if dy is not None else None
    return b if a is None else a if b is None else a + b


scaled_matmul = defop(
    "scaled_matmul",
    _scaled_matmul_fwd,
    _scaled_matmul_vjp,
    "MulBackward0",
    "alpha * (g @ y^T), alpha * (x^T @ g)",
    kind="linalg",
    jvp=_scaled_matmul_jvp,
    jvp_terms=((0, (1,)), (1, (0,))),  # (a product's ZeroTensor term scaled is one too)
    signature="alpha * (x @ y) inside addmm, addmv, baddbmm",
    samples=tuple(
        Sample(s, {"alpha": 1.5})
        for s in (((2, 3), (3, 4)), ((2, 3), (3,)), ((2, 2, 3), (2, 3, 4)))
    ),
    to_torch="({0} @ {1}) * {alpha}",
    to_jax="({0} @ {1}) * {alpha}",
    jvp_reads_primal=True,
)


def _maybe_times(t: Tensor, alpha: Any) -> Tensor:
    """PyTorch's maybe_multiply: t itself when alpha is 1, else t * alpha (MulBackward1)."""
    return t if alpha == 1 else _times_scalar(t, alpha)


# --- beta * input + alpha * outer(u, v): addr ----------------------------------------------------


def _addr_fwd(
    base: np.ndarray, u: np.ndarray, v: np.ndarray, alpha: Any = 1, beta: Any = 1
) -> np.ndarray:
    """ATen's addr kernel (float32 or float64, `base` the input expanded to the result's
    shape): alpha * u[i] * v[j] (alpha times u first), plus beta * input unless beta is 0 (the
    input then ignored, NaN in it too). Compiled with contraction: its vector function is
    fma(alpha * u, v, beta * input), its scalar tail fma(beta, input, alpha * u * v), split as
    `cpu_kernel_vec` splits the loop (`core.vecloop`; measured: every element of float32 and
    float64 results of 3 x 4 to 64 x 64, alpha and beta 1, 0.3, 0.5, -1.3, 1.7). ATen builds
    this kernel for AVX2 only: a Zen 4 runs its steps of 16 (`vecloop.vec_step`)."""
    dt = base.dtype.type
    au = np.multiply(u, np.asarray(alpha, dt))
    uu = np.broadcast_to(au[:, None], base.shape)
    vv = np.broadcast_to(v[None, :], base.shape)
    if beta == 0:

        def plain(s: np.ndarray, a: np.ndarray, w: np.ndarray) -> np.ndarray:
            return a * w

        return split_loop(plain, plain, base, uu, vv, dtype=dt, avx2_only=True)
    b = np.asarray(beta, dt)
    if dt is np.float32:

        def vec(s: np.ndarray, a: np.ndarray, w: np.ndarray) -> np.ndarray:
            return _fma32(a.astype(np.float64) * w, s * b)

        def tail(s: np.ndarray, a: np.ndarray, w: np.ndarray) -> np.ndarray:
            return _fma32(s.astype(np.float64) * b, a * w)
    else:

        def vec(s: np.ndarray, a: np.ndarray, w: np.ndarray) -> np.ndarray:
            return _fma64(a, w, s * b)

        def tail(s: np.ndarray, a: np.ndarray, w: np.ndarray) -> np.ndarray:
            return _fma64(s, np.full(s.shape, b), a * w)

    # (the result is made by the loop, laid out as the input's strides order it: a transposed
    # input is walked, and its result laid out, column by column)
    return split_loop(vec, tail, base, uu, vv, dtype=dt, avx2_only=True)


def _addr_vjp(
    g: Tensor, out: Tensor, base: Tensor, u: Tensor, v: Tensor, alpha: Any = 1, beta: Any = 1
) -> tuple:
    """addr's rules: the input's gradient g times beta; u's g.mv(v), v's g^T.mv(u), each then
    times alpha (products of MKL's gemv, not the sums of an elementwise product's gradient)."""
    gb = _maybe_times(g, beta) if base.requires_grad else None
    gu = _maybe_times(g @ v, alpha) if u.requires_grad else None
    gv = _maybe_times(transpose_last(g) @ u, alpha) if v.requires_grad else None
    return (gb, gu, gv)


def _addr_jvp(
    dots: tuple, out: Tensor, base: Tensor, u: Tensor, v: Tensor, alpha: Any = 1, beta: Any = 1
) -> Tensor:
    """beta * input' + alpha * outer(u', v) + alpha * outer(u, v'), added in that order, each
    outer an elementwise product (addr's formula)."""
    db, du, dv = dots
    terms = [] if db is None else [_maybe_times(db, beta)]
    if du is not None:
        terms.append(_maybe_times(unsqueeze(du, -1) * v, alpha))
    if dv is not None:
        terms.append(_maybe_times(unsqueeze(u, -1) * unsqueeze(dv, -2), alpha))
    return _added(terms)


def _added(terms: list) -> Tensor:
    acc = terms[0]
    for t in terms[1:]:
        acc = acc + t
    return acc


addr = defop(
    "addr",
    _addr_fwd,
    _addr_vjp,
    "AddrBackward0",
    "beta * g, alpha * (g @ v), alpha * (g^T @ u)",
    kind="linalg",
    jvp=_addr_jvp,
    sym=lambda sp, base, u, v, alpha=1, beta=1: (
        base * sp.sympify(beta) + np.multiply.outer(u, v) * sp.sympify(alpha)
    ),
    signature="beta * input + alpha * outer(u, v), input expanded (addr)",
    samples=(
        Sample(((3, 4), (3,), (4,)), {"alpha": 1.5, "beta": 0.5}),
        Sample(((2, 3), (2,), (3,)), {"alpha": 1, "beta": 1}),
    ),
    to_torch="torch.addr({0}, {1}, {2}, alpha={alpha}, beta={beta})",
    to_jax="{0} * {beta} + jnp.outer({1}, {2}) * {alpha}",
    jvp_reads_primal=True,
)


# --- beta * input + alpha * sum_b (x[b] @ y[b]): addbmm -----------------------------------------

_ADDBMM_LOOP = 64  # batches up to which ATen adds one product at a time (more: bmm, then sum)


def _addbmm_fwd(
    base: np.ndarray, x: np.ndarray, y: np.ndarray, alpha: Any = 1, beta: Any = 1
) -> np.ndarray:
    """ATen's addbmm (`base` the input expanded to the result's shape): beta * input (zeros
    for beta 0: the input ignored, NaN in it too), the products added into it one batch at a
    time, each times alpha (its chain of addmm_); past 64 batches one bmm summed over the
    batch, then times alpha, added."""
    dt = base.dtype
    a = np.asarray(alpha, dtype=dt)
    if beta == 0:
        out = np.zeros(base.shape, dt)
    else:
        out = base + np.zeros(base.shape, dt) if beta == 1 else base * np.asarray(beta, dt)
    if x.dtype == y.dtype == dt == np.float16 and 0 < x.shape[0] <= _ADDBMM_LOOP:
        # float16: each addmm_ rounds beta * acc + alpha * its product once
        from ..core.bf16 import reduced_addmm

        acc = base
        for i in range(x.shape[0]):
            acc = reduced_addmm(x[i], y[i], acc, float(alpha), float(beta) if i == 0 else 1.0)
            if acc is None:
                break
        else:
            return acc
    if x.shape[0] > _ADDBMM_LOOP:
        s = P.sum.forward(_matmul_record(x, y), dim=(0,), keepdim=False)
        return out + (s if alpha == 1 else s * a)
    if cpu.mkl_avx2() and x.dtype == y.dtype == dt and x.shape[0]:
        # each addmm_ as MKL's gemm scales and adds on this family (`gemm_avx2.addmm_scaled`)
        from .gemm_avx2 import addmm_scaled

        acc = base
        for i in range(x.shape[0]):
            acc = addmm_scaled(x[i], y[i], acc, float(alpha), float(beta) if i == 0 else 1.0)
            if acc is None:
                break
        else:
            return acc
    for i in range(x.shape[0]):
        p = _matmul_record(x[i], y[i])
        out = out + (p if alpha == 1 else p * a)
    return np.asarray(out, dtype=dt)


def _addbmm_vjp(
    g: Tensor, out: Tensor, base: Tensor, x: Tensor, y: Tensor, alpha: Any = 1, beta: Any = 1
) -> tuple:
    """addbmm's rules: the input's gradient g times beta; the batches' one bmm each of the
    gradient expanded over the batch (g @ y[b]^T, x[b]^T @ g), then times alpha."""
    ge = None
    if x.requires_grad or y.requires_grad:
        # (before the last two axes: a batched pass's gradient has leading axes of its own)
        ge = apply(expand, unsqueeze(g, -3), shape=(*g.shape[:-2], x.shape[0], *g.shape[-2:]))
    gb = _maybe_times(g, beta) if base.requires_grad else None
    gx = _maybe_times(_bmm(ge, transpose_last(y)), alpha) if x.requires_grad else None
    gy = _maybe_times(_bmm(transpose_last(x), ge), alpha) if y.requires_grad else None
    return (gb, gx, gy)


def _addbmm_jvp(
    dots: tuple, out: Tensor, base: Tensor, x: Tensor, y: Tensor, alpha: Any = 1, beta: Any = 1
) -> Tensor:
    """beta * input' + alpha * sum_b(x'[b] @ y[b]) + alpha * sum_b(x[b] @ y'[b]), added in
    that order (addbmm's formula)."""
    db, dx, dy = dots
    terms = [] if db is None else [_maybe_times(db, beta)]
    if dx is not None:
        terms.append(_maybe_times(_sum0(_bmm(dx, y)), alpha))
    if dy is not None:
        terms.append(_maybe_times(_sum0(_bmm(x, dy)), alpha))
    return _added(terms)


def _bmm(x: Tensor, y: Tensor) -> Tensor:
    return apply(matmul, x, y, label="BmmBackward0")


def _sum0(t: Tensor) -> Tensor:
    # (the batch of products: before the last two axes, a batched tangent's own lead first)
    return apply(P.sum, t, dim=(t.ndim - 3,), keepdim=False, label="SumBackward1")


addbmm = defop(
    "addbmm",
    _addbmm_fwd,
    _addbmm_vjp,
    "AddbmmBackward0",
    "beta * g, alpha * (g @ y[b]^T), alpha * (x[b]^T @ g)",
    kind="linalg",
    jvp=_addbmm_jvp,
    signature="beta * input + alpha * sum_b(x[b] @ y[b]), input expanded (addbmm)",
    samples=(
        Sample(((2, 4), (3, 2, 5), (3, 5, 4)), {"alpha": 1.5, "beta": 0.5}),
        Sample(((2, 4), (2, 2, 3), (2, 3, 4)), {"alpha": 1, "beta": 1}),
    ),
    to_torch="torch.addbmm({0}, {1}, {2}, alpha={alpha}, beta={beta})",
    to_jax="{0} * {beta} + jnp.einsum('bij,bjk->ik', {1}, {2}) * {alpha}",
    jvp_reads_primal=True,
)
