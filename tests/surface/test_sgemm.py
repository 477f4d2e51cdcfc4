"""Float32 matrix products in MKL's order as PyTorch 2.13 computes them (one thread): nn.Linear's
product with 1-15 rows (the kernels MKL picks by the shape), the blocked chain past 384 inner,
F.linear's bias where MKL does not add it last, single dot products by layout, and the
gradients' products: recorded bits, the rules restated with exact scalars, and a live
cross-check when torch is installed."""

from __future__ import annotations

import importlib.util
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gradcli.core import mkldot
from gradcli.core.tensor import Tensor
from gradcli.ops import linalg as L
from gradcli.surface import composite

DATA = Path(__file__).resolve().parent / "data" / "sgemm"


def _load(name: str, file: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, DATA / file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REC = _load("_sgemm_record", "record.py")
EXPECTED = np.load(DATA / "expected.npz")


def _linear(x: np.ndarray, w: np.ndarray, b: np.ndarray | None) -> np.ndarray:
    """F.linear as a program reaches it (the surface's composite, bias and all)."""
    out = composite.linear(Tensor(x), Tensor(w), None if b is None else Tensor(b))
    return out.data


def _ours(kind: str, a: np.ndarray, b: np.ndarray, bias: np.ndarray) -> np.ndarray:
    if kind == "linear":
        out = _linear(a, b, None)
    elif kind in ("linear_bias", "linear3d"):
        out = _linear(a, b, bias)
    elif kind == "grad_x":
        out = L._matmul_fwd(a, b)
    elif kind == "grad_w":
        out = L._matmul_fwd(a.T, b)
    elif kind == "dot_t":
        out = L._matmul_fwd(a, b.T)
    elif kind == "dot_col":
        out = L._matmul_fwd(a, np.ascontiguousarray(b.T))
    else:
        out = L._matmul_fwd(a, b[0])
    return np.asarray(out, np.float32).reshape(-1)


def _numpy(kind: str, a: np.ndarray, b: np.ndarray, bias: np.ndarray) -> np.ndarray:
    if kind in ("linear", "linear_bias", "linear3d", "dot_t", "dot_col"):
        out = np.matmul(a, b.T)
        out = out + bias if kind in ("linear_bias", "linear3d") else out
    elif kind == "grad_x":
        out = np.matmul(a, b)
    elif kind == "grad_w":
        out = np.matmul(a.T, b)
    else:
        out = np.matmul(a, b[0])
    return np.asarray(out, np.float32).reshape(-1)


def test_recorded_products_are_pytorchs_bits() -> None:
    ends = np.cumsum(EXPECTED["lengths"])
    bits = np.split(EXPECTED["bits"], ends[:-1])
    assert len(bits) == len(REC.SHAPES)
    numpy_differs = 0
    for i, (kind, m, k, n) in enumerate(REC.SHAPES):
        a, b, bias = REC.operands(i)
        got = _ours(kind, a, b, bias)
        assert np.array_equal(got.view(np.uint32), bits[i]), (kind, m, k, n)
        numpy_differs += not np.array_equal(_numpy(kind, a, b, bias).view(np.uint32), bits[i])
    # NumPy's BLAS would print other last digits for many of the recorded shapes
    assert numpy_differs > 60


def _round(v: Fraction) -> Fraction:
    """v rounded once to float32 (to nearest, ties to even), exactly."""
    near = np.float32(float(v))
    cands = [near, np.nextafter(near, np.float32(np.inf)), np.nextafter(near, np.float32(-np.inf))]
    best = min(cands, key=lambda f: (abs(Fraction(float(f)) - v), int(f.view(np.int32)) & 1))
    return Fraction(float(best))


def _lanes(p: list[Fraction], sets: int = 1) -> list[Fraction]:
    """16 lanes from zero, lane l fusing p[l], p[l + 16], ... in order; with 2 sets, the second
    set takes the odd blocks of 16 while 32 or more are left, added lane by lane after."""
    accs = [[Fraction(0)] * 16 for _ in range(sets)]
    s = 0
    while sets > 1 and len(p) - s >= 32:
        for j in range(2):
            for lane in range(16):
                accs[j][lane] = _round(p[s + 16 * j + lane] + accs[j][lane])
        s += 32
    acc = accs[0] if sets == 1 else [_round(u + v) for u, v in zip(*accs)]
    for i in range(s, len(p)):
        acc[(i - s) % 16] = _round(p[i] + acc[(i - s) % 16])
    return acc


def _by_halves(v: list[Fraction]) -> Fraction:
    while len(v) > 1:
        h = len(v) // 2
        v = [_round(v[i] + v[i + h]) for i in range(h)]
    return v[0]


def _by_quads(v: list[Fraction]) -> Fraction:
    t = [_round(_round(_round(v[j] + v[j + 4]) + v[j + 8]) + v[j + 12]) for j in range(4)]
    return _round(_round(t[0] + t[1]) + _round(t[2] + t[3]))


def _chain(p: list[Fraction]) -> Fraction:
    s = Fraction(0)
    for q in p:
        s = _round(q + s)
    return s


@pytest.mark.parametrize(
    "m,k,n,kind",
    [
        (2, 50, 13, "quads"),  # k >= 24 rows
        (3, 80, 2, "quads"),
        (5, 40, 2, "pairs"),  # 2 columns (or 3 with at most 10 rows): even rows two sets
        (9, 35, 3, "pairs"),
        (4, 6, 8, "halves"),  # 4-11 columns, fewer rows than columns, k <= columns
        (3, 20, 11, "chain"),
        (11, 20, 3, "chain"),
    ],
)
def test_few_rows_kernels_written_with_exact_scalars(m: int, k: int, n: int, kind: str) -> None:
    assert L._few_rows_kernel(m, k, n) == kind
    rng = np.random.default_rng(m * 1000 + k * 10 + n)
    x = rng.standard_normal((m, k)).astype(np.float32)
    w = rng.standard_normal((n, k)).astype(np.float32)
    got = L._matmul_fwd(x, w.T)
    for r in range(m):
        for c in range(n):
            p = [Fraction(float(x[r, i])) * Fraction(float(w[c, i])) for i in range(k)]
            if kind == "quads":
                want = _by_quads(_lanes(p))
            elif kind == "pairs":
                want = _by_halves(_lanes(p, 2 if r % 2 == 0 else 1))
            elif kind == "halves":
                want = _by_halves(_lanes(p))
            else:
                want = _chain(p)
            assert Fraction(float(got[r, c])) == want, (m, k, n, r, c)


def test_blocks_of_the_inner_size() -> None:
    assert L._k_blocks(384) == [(0, 384)]
    assert L._k_blocks(385) == [(0, 193), (193, 385)]
    assert L._k_blocks(800) == [(0, 384), (384, 592), (592, 800)]
    assert L._k_blocks(1152) == [(0, 384), (384, 768), (768, 1152)]
    assert L._k_blocks(800, plain=True) == [(0, 384), (384, 768), (768, 800)]
    assert L._k_blocks(700, plain=True) == [(0, 350), (350, 700)]
    rng = np.random.default_rng(9)
    x = rng.standard_normal((16, 800)).astype(np.float32)
    w = rng.standard_normal((20, 800)).astype(np.float32)
    y = np.ascontiguousarray(w.T)
    parts = [L._fma_chain(x[:, lo:hi], y[lo:hi]) for lo, hi in ((0, 384), (384, 592), (592, 800))]
    assert np.array_equal(L._matmul_fwd(x, w.T), (parts[0] + parts[1]) + parts[2])
    b = rng.standard_normal(20).astype(np.float32)
    assert np.array_equal(_linear(x, w, b), ((b + parts[0]) + parts[1]) + parts[2])


def test_plain_blocks_of_a_row_major_second_operand() -> None:
    x, y = np.zeros((192, 800), np.float32), np.zeros((800, 192), np.float32)
    assert L._plain_blocks(x, y)
    assert not L._plain_blocks(x[:191], y) and not L._plain_blocks(x, y[:, :191])
    assert L._plain_blocks(x[:16], np.zeros((192, 800), np.float32).T)  # w.t(): by columns
    assert L._plain_blocks(np.zeros((800, 192), np.float32).T, y)  # x.t() @ g


def test_recorded_large_products_where_blas_is_proven() -> None:
    """Past 2^24 multiply-adds the blocked chain is mirrored where NumPy's BLAS is proven to
    compute MKL's chains on this machine (elsewhere NumPy's BLAS, not PyTorch's bits: skip)."""
    rec = _load("_sgemm_large", "record_large.py")
    for i, want in enumerate(json.loads((DATA / "large.json").read_text())):
        kind, m, k, n = want["case"]
        x, y, b = rec.operands(i)
        if not L._blocked(x, y):
            pytest.skip("NumPy's BLAS is not proven to compute MKL's chains here")
        if kind == "linear_bias":
            got = _linear(x, np.ascontiguousarray(y.T), b)
        else:
            got = L._matmul_fwd(x, y)
        assert rec.crc(got) == want["crc32"], (kind, m, k, n)


def test_bias_fused_into_a_product_of_inner_size_one() -> None:
    rng = np.random.default_rng(10)
    x = rng.standard_normal((30, 1)).astype(np.float32)
    w = rng.standard_normal((6, 1)).astype(np.float32)
    b = rng.standard_normal(6).astype(np.float32)
    exact = x.astype(np.float64) * w[:, 0].astype(np.float64) + b.astype(np.float64)
    got = _linear(x, w, b)
    assert np.array_equal(got, exact.astype(np.float32))  # one rounding (no double rounding
    assert not np.array_equal(got, x * w.T + b)  # here): not the rounded product plus b
    # one row, or one column: the bias added after the product
    assert np.array_equal(_linear(x[:1], w, b), x[:1] * w.T + b)
    assert np.array_equal(_linear(x, w[:1], b[:1]), x * w[:1].T + b[:1])


def test_a_batch_of_inputs_is_one_folded_product() -> None:
    rng = np.random.default_rng(12)
    x = rng.standard_normal((3, 5, 40)).astype(np.float32)
    w = rng.standard_normal((7, 40)).astype(np.float32)
    got = L._matmul_fwd(x, w.T)
    assert np.array_equal(got, L._matmul_fwd(x.reshape(15, 40), w.T).reshape(3, 5, 7))


def test_outside_what_was_measured_numpy_computes() -> None:
    rng = np.random.default_rng(13)
    v = rng.standard_normal(50).astype(np.float32)
    u = rng.standard_normal(50).astype(np.float32)
    # torch.dot: MKL's ?dot, its own order (tests/ops/test_dot_order.py)
    assert L._matmul_fwd(v, u) == mkldot.dot(v, u)
    wide = rng.standard_normal((50, 3)).astype(np.float32)
    # a row whose elements are apart times a column or a vector whose elements are apart:
    # MKL's column kernel with an increment (tests/ops/test_matmul_layouts.py)
    assert L._one_dot(wide[:, :1].T, wide[:, 1:2]) == "strided"
    assert L._one_dot(wide[:, :1].T, wide[:, 1]) == "strided"
    assert L._one_dot(wide[:, :1].T, wide[:, 1].copy()) == "chain"
    assert L._one_dot(wide[:1, ::2], wide[:, 1:2]) is None
    assert L._one_dot(v[None, :], u[:, None]) == "chain"
    assert L._one_dot(v[None, :], u.reshape(1, 50).copy().T) == "left"
    # past the bound on work (a blocked chain past it where BLAS is proven to compute it:
    # tests/ops/test_blas32.py)
    assert L._few_rows_kernel(15, 1 << 12, 1 << 10) is None


def test_products_live_against_torch() -> None:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    rng = np.random.default_rng(14)
    for _ in range(150):
        m = int(rng.integers(1, 16 if rng.random() < 0.6 else 300))
        k = int(rng.integers(1, 70 if rng.random() < 0.7 else 1500))
        n = int(rng.integers(1, 70))
        if m * k * n > L._FMA_MAX_WORK:
            continue
        x = rng.standard_normal((m, k)).astype(np.float32)
        w = rng.uniform(-1, 1, (n, k)).astype(np.float32)
        b = rng.uniform(-1, 1, n).astype(np.float32)
        g = rng.standard_normal((m, n)).astype(np.float32)
        tx, tw, tb, tg = (torch.from_numpy(a) for a in (x, w, b, g))
        shape = (m, k, n)
        assert np.array_equal(_linear(x, w, None), torch.nn.functional.linear(tx, tw)), shape
        assert np.array_equal(_linear(x, w, b), torch.nn.functional.linear(tx, tw, tb)), shape
        assert np.array_equal(L._matmul_fwd(g, w), (tg @ tw).numpy()), shape
        assert np.array_equal(L._matmul_fwd(x.T, g), (tx.t() @ tg).numpy()), shape
