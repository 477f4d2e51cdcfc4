"""The emulated float32 chains of fused multiply-adds (`linalg._fma_chains`, which MKL's sgemm
orders of both kernel families are built on): every element's bits equal the chain done one
step at a time with `_fma32` (the correctly rounded fused multiply-add, the emulation before
the steps of many blocks were done together), on deterministic random shapes: inner sizes not
a multiple of the blocks, one row, one column, transposed and strided operands, a start; the
float32 midpoints where rounding the float64 sum again is wrong; and exact rational
arithmetic on small shapes."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from gradcli.ops import gemm_avx2
from gradcli.ops import linalg as L


def _bits(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a, np.float32)
    return np.where(np.isnan(a), np.uint32(0x7FC00000), a.view(np.uint32))


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and np.array_equal(_bits(a), _bits(b))


def _stepwise(x: np.ndarray, y: np.ndarray, start: np.ndarray | None = None) -> np.ndarray:
    """The chain one inner index at a time: acc = fma(x[:, j], y[j], acc), from zero or start."""
    m, n = x.shape[0], y.shape[1]
    acc = np.zeros((m, n), np.float32) if start is None else start.astype(np.float32)
    with np.errstate(all="ignore"):
        for j in range(x.shape[1]):
            p = x[:, j, None].astype(np.float64) * y[None, j].astype(np.float64)
            acc = L._fma32(p, acc)
    return acc


def _values(rng: np.random.Generator, shape: tuple[int, ...], spread: int = 6) -> np.ndarray:
    e = rng.integers(-spread, spread + 1, shape)
    return (rng.standard_normal(shape) * np.exp2(e)).astype(np.float32)


def _operand(rng: np.random.Generator, rows: int, cols: int, how: int) -> np.ndarray:
    """A float32 (rows, cols) operand: row-major, column-major, or a strided view."""
    if how == 1:
        return np.asfortranarray(_values(rng, (rows, cols)))
    if how == 2:
        return _values(rng, (rows, 2 * cols))[:, ::2]
    if how == 3:
        return _values(rng, (cols, rows)).T
    return _values(rng, (rows, cols))


def _blocks(k: int, rng: np.random.Generator) -> list[tuple[int, int]]:
    """Ranges of the inner size as the kernels cut it: MKL's of either family, or random."""
    pick = int(rng.integers(0, 3))
    if pick == 0:
        return L._k_blocks(k)
    if pick == 1:
        return gemm_avx2._k_blocks(k)
    cuts = sorted({0, k, *(int(c) for c in rng.integers(0, k + 1, 3))})
    return list(zip(cuts[:-1], cuts[1:]))


def test_blocks_together_are_each_blocks_chain_on_random_shapes() -> None:
    rng = np.random.default_rng(2024)
    sizes = [(1, 1, 1), (1, 37, 5), (5, 37, 1), (3, 193, 2), (2, 385, 13), (7, 401, 20)]
    sizes += [tuple(int(v) for v in rng.integers((1, 1, 1), (24, 420, 24))) for _ in range(30)]
    for i, (m, k, n) in enumerate(sizes):
        x, y = _operand(rng, m, k, i % 4), _operand(rng, k, n, (i // 4) % 4)
        blocks = _blocks(k, rng)
        got = L._fma_chains(x, y, blocks)
        assert got.shape == (len(blocks), m, n) and got.flags.c_contiguous
        for b, (lo, hi) in enumerate(blocks):
            assert _same(got[b], _stepwise(x[:, lo:hi], y[lo:hi])), (m, k, n, lo, hi)


def test_one_chain_from_a_start() -> None:
    rng = np.random.default_rng(2025)
    for m, k, n in [(1, 9, 30), (30, 9, 1), (4, 70, 16), (16, 33, 3), (9, 1, 9)]:
        x, y, start = _values(rng, (m, k)), _values(rng, (k, n)), _values(rng, (m, n))
        start[0, 0] = -0.0  # (a start of -0 and a zero product: the sign is the fma's)
        x[0, 0] = 0.0
        assert _same(L._fma_chain_emulated(x, y, start), _stepwise(x, y, start))
        assert _same(L._fma_chain_emulated(x, y), _stepwise(x, y))


def test_the_products_and_sums_that_round_twice_wrong() -> None:
    # 2^24 + 2 (odd last bit) plus the product (1 + 2^-23)(1 - 2^-23) = 1 - 2^-46: just under
    # the midpoint 2^24 + 3, which the float64 sum rounds to; a second rounding (ties to even)
    # would give 2^24 + 4, the fused one gives 2^24 + 2
    x = np.ones((3, 6), np.float32)
    y = np.zeros((6, 14), np.float32)
    x[:, 0], y[0] = 2.0**24 + 2, 1.0
    x[:, 1], y[1] = 1 + 2.0**-23, 1 - 2.0**-23
    y[2:] = 2.0**-30  # (later steps that leave it)
    want = np.float32(2.0**24 + 2)
    assert np.all(_stepwise(x, y) == want)
    assert np.all(L._fma_chain_emulated(x, y) == want)
    # the same in the third of three blocks and among ordinary values elsewhere
    rng = np.random.default_rng(7)
    big = _values(rng, (3, 40))
    ybig = _values(rng, (40, 14))
    big[:, 30:36], ybig[30:36] = x, y
    got = L._fma_chains(big, ybig, [(0, 15), (15, 30), (30, 36), (36, 40)])
    assert np.all(got[2] == want)
    for b, (lo, hi) in enumerate([(0, 15), (15, 30), (30, 36), (36, 40)]):
        assert _same(got[b], _stepwise(big[:, lo:hi], ybig[lo:hi]))


def test_special_values() -> None:
    rng = np.random.default_rng(8)
    x, y = _values(rng, (6, 50)), _values(rng, (50, 13))
    x[0, 3], x[1, 4], x[2, 5] = np.nan, np.inf, -np.inf
    x[3, :4] = np.float32(1e-40)  # denormals, and products that underflow
    x[4] = np.float32(3e38)  # sums that overflow
    y[7, 2] = 0.0
    for blocks in ([(0, 50)], [(0, 25), (25, 50)], [(0, 17), (17, 34), (34, 50)]):
        got = L._fma_chains(x, y, blocks)
        for b, (lo, hi) in enumerate(blocks):
            assert _same(got[b], _stepwise(x[:, lo:hi], y[lo:hi]))


def _to_f32(q: Fraction) -> np.float32:
    """The float32 nearest q (ties to even), for q within the normal range."""
    if q == 0:
        return np.float32(0.0)
    sign, q = (-1, -q) if q < 0 else (1, q)
    e = q.numerator.bit_length() - q.denominator.bit_length()
    while Fraction(2) ** e > q:
        e -= 1
    while Fraction(2) ** (e + 1) <= q:
        e += 1
    scaled = q / Fraction(2) ** (e - 23)  # in [2^23, 2^24)
    whole = scaled.numerator // scaled.denominator
    rest = scaled - whole
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and whole % 2):
        whole += 1
    return np.float32(sign * whole * 2.0 ** (e - 23))


def test_against_exact_arithmetic() -> None:
    rng = np.random.default_rng(9)
    for m, k, n in [(2, 30, 3), (3, 17, 2)]:
        x, y = _values(rng, (m, k), 12), _values(rng, (k, n), 12)
        got = L._fma_chains(x, y, [(0, 11), (11, k)])
        for b, (lo, hi) in enumerate([(0, 11), (11, k)]):
            for i in range(m):
                for c in range(n):
                    acc = np.float32(0.0)
                    for j in range(lo, hi):
                        exact = Fraction(float(acc)) + Fraction(float(x[i, j])) * Fraction(
                            float(y[j, c])
                        )
                        acc = _to_f32(exact)
                    assert got[b, i, c].view(np.uint32) == acc.view(np.uint32)


def test_a_result_one_ulp_off_is_found() -> None:
    rng = np.random.default_rng(10)
    x, y = _values(rng, (5, 60)), _values(rng, (60, 12))
    got = L._fma_chains(x, y, [(0, 30), (30, 60)])[1]
    off = got.copy()
    off[3, 7] = np.nextafter(off[3, 7], np.float32(np.inf))
    assert _same(got, _stepwise(x[:, 30:], y[30:]))
    assert not _same(off, _stepwise(x[:, 30:], y[30:]))


@pytest.mark.parametrize("family", ["avx2", "avx512"])
def test_the_products_of_both_families(family: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """mm's blocked chains (more inner than a block: several blocks together) are the sum of
    each block's chain, in order, as the loop over blocks added them."""
    monkeypatch.setenv("GRADCLI_KERNELS", family)
    rng = np.random.default_rng(11)
    blocks = gemm_avx2._k_blocks if family == "avx2" else L._k_blocks
    for m, k, n in [(16, 500, 12), (4, 200, 30), (20, 390, 16), (17, 800, 13)]:
        x, y = _values(rng, (m, k)), _values(rng, (k, n))
        want = None
        for lo, hi in blocks(k):
            part = _stepwise(x[:, lo:hi], y[lo:hi])
            want = part if want is None else want + part
        assert _same(L._matmul_fwd(x, y), want), (family, m, k, n)
        xt = np.ascontiguousarray(x.T).T  # (x.t() of a row-major matrix: the weight's gradient)
        assert _same(L._matmul_fwd(xt, y), want), (family, m, k, n)


def test_bmm_of_chains_all_at_once_is_each_matrix(monkeypatch: pytest.MonkeyPatch) -> None:
    """bmm on the avx2 family: the matrices of the chain kernel (4 rows and 12 columns or more)
    all at once, in bits each matrix's mm and each block's step-by-step chain."""
    monkeypatch.setenv("GRADCLI_KERNELS", "avx2")
    rng = np.random.default_rng(12)
    for batch, m, k, n in [(3, 4, 30, 12), (2, 17, 250, 13), (5, 6, 400, 20)]:
        x, y = _values(rng, (batch, m, k)), _values(rng, (batch, k, n))
        for xv, yv in [
            (x, y),
            (x, y[:1]),
            (np.ascontiguousarray(x.swapaxes(1, 2)).swapaxes(1, 2), y),
        ]:
            got = L._bmm_fwd(xv, yv)
            yb = np.broadcast_to(yv, y.shape)
            for b in range(batch):
                assert _same(got[b], gemm_avx2.mm(xv[b], yb[b])), (batch, m, k, n, b)
                want = None
                for lo, hi in gemm_avx2._k_blocks(k):
                    part = _stepwise(xv[b][:, lo:hi], yb[b][lo:hi])
                    want = part if want is None else want + part
                assert _same(got[b], want)
