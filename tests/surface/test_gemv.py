"""Single-column float32 products (nn.Linear(k, 1)) and the narrow products of their
gradients, in MKL's order as PyTorch 2.13 computes them: recorded bits, a scalar re-statement
of the rule, and a live cross-check when torch is installed."""

from __future__ import annotations

import importlib.util
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gradcli.ops import linalg as L

DATA = Path(__file__).resolve().parent / "data" / "gemv"


def _load_record() -> Any:
    spec = importlib.util.spec_from_file_location("_gemv_record", DATA / "record.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REC = _load_record()
EXPECTED = np.load(DATA / "expected.npz")


def _ours(kind: str, a: np.ndarray, b: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """The product as gradcli forms it for each kind (nn.Linear: x @ w.t(), a transposed view;
    the weight's gradient: x.t() @ g)."""
    if kind == "linear":
        out = L._matmul_fwd(a, b.T)
    elif kind == "linear_t":
        out = L._matmul_fwd(np.ascontiguousarray(a.T).T, b.T)
    elif kind == "linear_bias":
        out = L._matmul_fwd(a, b.T) + bias
    elif kind == "mv":
        out = L._matmul_fwd(a, b[0])
    elif kind == "row":
        out = L._matmul_fwd(a.T, b)
    else:
        out = L._matmul_fwd(b.T, a)
    return np.asarray(out, np.float32).reshape(-1)


def test_recorded_single_column_products_are_pytorchs_bits() -> None:
    ends = np.cumsum(EXPECTED["lengths"])
    bits = np.split(EXPECTED["bits"], ends[:-1])
    numpy_differs = 0
    for i, (kind, m, k) in enumerate(REC.SHAPES):
        a, b, bias = REC.operands(i)
        got = _ours(kind, a, b, bias)
        assert np.array_equal(got.view(np.uint32), bits[i]), (kind, m, k)
        if kind == "linear":
            numpy_differs += not np.array_equal(np.matmul(a, b.T).reshape(-1), got)
    # The recorded shapes are ones where NumPy's BLAS would print other last digits.
    assert numpy_differs > 50


def _f32(v: Fraction | float) -> Fraction:
    return Fraction(float(np.float32(float(v)))) if not isinstance(v, Fraction) else _round(v)


def _round(v: Fraction) -> Fraction:
    """v rounded once to float32 (to nearest, ties to even), exactly."""
    near = np.float32(float(v))
    cands = [near, np.nextafter(near, np.float32(np.inf)), np.nextafter(near, np.float32(-np.inf))]
    best = min(cands, key=lambda f: (abs(Fraction(float(f)) - v), int(f.view(np.int32)) & 1))
    return Fraction(float(best))


def _halves(v: list[Fraction]) -> Fraction:
    while len(v) > 1:
        h = len(v) // 2
        v = [_round(v[i] + v[i + h]) for i in range(h)]
    return v[0]


def _grouped_element(p: list[Fraction]) -> Fraction:
    """A row in a whole group of 4: the first product alone in lane 0, the next fused into 16
    lanes, added by halves; the products after the whole blocks of 16 again from that sum."""
    r = _round(p[0])
    whole = (len(p) - 1) // 16 * 16
    for lo, hi in ((1, 1 + whole), (1 + whole, len(p))):
        if hi <= lo:
            continue
        lanes = [r] + [Fraction(0)] * 15
        for i in range(lo, hi):
            lanes[(i - lo) % 16] = _round(p[i] + lanes[(i - lo) % 16])
        r = _halves(lanes)
    return r


def _left_element(p: list[Fraction], sets: int) -> Fraction:
    """A row left after the groups of 4: `sets` sets of 16 lanes from zero while 16 * sets
    products or more are left, added lane by lane, the rest fused into them; the lanes added
    by halves, then the first product, rounded."""
    accs = [[Fraction(0)] * 16 for _ in range(sets)]
    s = 1
    while len(p) - s >= 16 * sets:
        for j in range(sets):
            for lane in range(16):
                accs[j][lane] = _round(p[s + 16 * j + lane] + accs[j][lane])
        s += 16 * sets
    acc = accs[0]
    for other in accs[1:]:
        acc = [_round(u + v) for u, v in zip(acc, other)]
    for i in range(s, len(p)):
        acc[(i - s) % 16] = _round(p[i] + acc[(i - s) % 16])
    return _round(_round(p[0]) + _halves(acc))


@pytest.mark.parametrize("m,k", [(4, 5), (5, 20), (7, 40), (6, 70), (9, 33)])
def test_single_column_rule_written_with_exact_scalars(m: int, k: int) -> None:
    rng = np.random.default_rng(m * 100 + k)
    x = rng.standard_normal((m, k)).astype(np.float32)
    w = rng.standard_normal(k).astype(np.float32)
    got = L._matmul_fwd(x, w)
    main = m - m % 4
    for r in range(m):
        p = [Fraction(float(x[r, i])) * Fraction(float(w[i])) for i in range(k)]
        if r < main:
            want = _grouped_element(p)
        else:
            want = _left_element(p, 1 if r - main == 1 else 2)
        assert Fraction(float(got[r])) == want, (m, k, r)


def test_narrow_products_are_the_fused_chain() -> None:
    rng = np.random.default_rng(3)
    for m, n in ((40, 3), (500, 15), (9, 2)):
        g = rng.standard_normal((m, 1)).astype(np.float32)
        x = rng.standard_normal((m, n)).astype(np.float32)
        chain = L._fma_chain(g.T.copy(), x)
        assert np.array_equal(L._matmul_fwd(g.T, x), chain)
        assert np.array_equal(L._matmul_fwd(g[:, 0], x), chain[0])
        assert np.array_equal(L._matmul_fwd(x.T, g), chain.T)
        assert np.array_equal(L._matmul_fwd(x.T, g[:, 0]), chain[0])


def _column_kernel_element(v: list[float], b: list[float]) -> Fraction:
    """One of the outputs in whole groups of 16 of MKL's column kernel, with exact scalars:
    blocks of 8 (see `linalg._GEMV_BLOCK`), the rest fused in order."""
    p = [Fraction(a) * Fraction(c) for a, c in zip(v, b)]
    s = Fraction(0)
    whole = len(p) - len(p) % 8
    for i in range(0, whole, 8):
        q = p[i : i + 8]
        a = _round(_round(q[0] + _round(q[2])) + _round(q[1] + _round(q[3])))
        s = _round(q[4] + _round(q[6] + s))
        s = _round(s + _round(q[5] + _round(q[7])))
        s = _round(s + a)
    for i in range(whole, len(p)):
        s = _round(p[i] + s)
    return s


@pytest.mark.parametrize("m,n", [(8, 16), (13, 17), (30, 33), (3, 20)])
def test_column_kernel_written_with_exact_scalars(m: int, n: int) -> None:
    rng = np.random.default_rng(m * 1000 + n)
    g = rng.standard_normal(m).astype(np.float32)
    x = rng.standard_normal((m, n)).astype(np.float32)
    got = L._matmul_fwd(g, x)
    assert np.array_equal(L._matmul_fwd(x.T, g), got)
    main = n - n % 16
    for j in range(n):
        col = [float(c) for c in x[:, j]]
        if j < main:
            want = _column_kernel_element([float(a) for a in g], col)
        else:
            want = Fraction(float(L._fma_chain(g[None, :], x[:, j : j + 1])[0, 0]))
        assert Fraction(float(got[j])) == want, (m, n, j)


def test_outside_what_was_measured_numpy_computes() -> None:
    rng = np.random.default_rng(4)
    x = rng.standard_normal((40, 20)).astype(np.float32)
    w = rng.standard_normal((1, 20)).astype(np.float32)
    # one row times one column; rows that are neither contiguous nor down memory
    assert np.array_equal(L._matmul_fwd(x[:1], w.T), np.matmul(x[:1], w.T))
    # rows whose elements are apart: ATen hands BLAS a contiguous copy (explore111)
    xs = x[:, ::2]
    copied = L._matmul_fwd(np.ascontiguousarray(xs), w[:, :10].T)
    assert np.array_equal(L._matmul_fwd(xs, w[:, :10].T), copied)
    # sizes past the bound on work (16 lanes a row, however short the rows) go to BLAS
    assert not L._gemv_mirrored(np.zeros((1 << 21, 2), np.float32), np.zeros(2, np.float32))
    big = np.zeros((1 << 13, 1 << 12), np.float32)
    assert not L._narrow_chain(np.zeros((1, 1 << 13), np.float32), big)
    # (float64's single column is MKL's dgemv dot-product kernel: tests/ops/test_row64_order.py)
    x64, w64 = x.astype(np.float64), w.astype(np.float64)
    assert np.array_equal(L._matmul_fwd(x64, w64.T)[:, 0], L._dot_rows64(x64, w64[0]))
    xs64 = x64[:, ::2]  # rows whose elements are apart: the contiguous copy's, as float32's
    copied64 = L._matmul_fwd(np.ascontiguousarray(xs64), w64[:, :10].T)
    assert np.array_equal(L._matmul_fwd(xs64, w64[:, :10].T), copied64)


def test_single_column_products_live_against_torch() -> None:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    rng = np.random.default_rng(11)
    for _ in range(120):
        m, k = int(rng.integers(2, 200)), int(rng.integers(2, 600))
        x = rng.standard_normal((m, k)).astype(np.float32)
        w = rng.uniform(-1, 1, (1, k)).astype(np.float32)
        b = rng.uniform(-1, 1, 1).astype(np.float32)
        tx, tw, tb = (torch.from_numpy(v) for v in (x, w, b))
        got = L._matmul_fwd(x, w.T)
        assert np.array_equal(got, torch.nn.functional.linear(tx, tw).numpy()), (m, k)
        assert np.array_equal(got + b, torch.nn.functional.linear(tx, tw, tb).numpy()), (m, k)
        n = int(rng.integers(2, 16 if rng.random() < 0.5 else 100))
        g = rng.standard_normal((m, 1)).astype(np.float32)
        xs = (
            np.ascontiguousarray(x[:, :n])
            if k >= n
            else rng.standard_normal((m, n)).astype(np.float32)
        )
        tg, txs = torch.from_numpy(g), torch.from_numpy(xs)
        assert np.array_equal(L._matmul_fwd(g.T, xs), (tg.t() @ txs).numpy()), (m, n)
        assert np.array_equal(L._matmul_fwd(xs.T, g), (txs.t() @ tg).numpy()), (m, n)
