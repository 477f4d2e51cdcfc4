"""The float32 chain of fused multiply-adds by NumPy's BLAS (gradcli/ops/blas32.py): where it is
used it gives the emulation's bits (random shapes, cancelling sums, NaN, infinities,
denormals, k = 1, tiles), and a BLAS that differs in one bit is found out and not used."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.ops import blas32
from gradcli.ops import linalg as L


def _bits(a: np.ndarray) -> np.ndarray:
    """The float32 bits, every NaN as one pattern (a NaN's sign and payload are not compared)."""
    a = np.asarray(a, np.float32)
    return np.where(np.isnan(a), np.uint32(0x7FC00000), a.view(np.uint32))


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and np.array_equal(_bits(a), _bits(b))


def _values(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    return (rng.standard_normal(shape) * np.exp2(rng.integers(-8, 9, shape))).astype(np.float32)


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> dict:
    """No verdicts from other tests: each class is proved here."""
    verdicts: dict = {}
    monkeypatch.setattr(blas32, "_verdicts", verdicts)
    return verdicts


def test_the_chain_by_blas_is_the_emulations_on_random_shapes(fresh: dict) -> None:
    rng = np.random.default_rng(31)
    shapes = [(2, 1, 2), (2, 2, 2), (3, 384, 2), (17, 5, 33), (64, 100, 100), (40, 384, 40)]
    shapes += [tuple(int(v) for v in rng.integers((2, 1, 2), (48, 385, 48))) for _ in range(8)]
    for m, k, n in shapes:
        x, y = _values(rng, (m, k)), _values(rng, (k, n))
        assert _same(L._fma_chain(x, y), L._fma_chain_emulated(x, y)), (m, k, n)
    # the fast path was taken where it was measured (NumPy's OpenBLAS on SkylakeX); on a
    # machine whose BLAS is not a chain every verdict is False and the emulation computed
    assert any(fresh.values()) or blas32._state()[0] != "SkylakeX"


def test_cancelling_sums_and_special_values(fresh: dict) -> None:
    rng = np.random.default_rng(32)
    m, k, n = 6, 40, 5
    # 2^25 and -2^25 at two inner indices and small powers of two elsewhere: which small
    # values survive shows the order of the sum (tests/surface/data/sgemm/probe.py)
    x = np.exp2(-rng.integers(0, 20, (m, k))).astype(np.float32)
    x[:, 7], x[:, 23] = 2.0**25, -(2.0**25)
    y = np.ones((k, n), np.float32)
    y[:, 1] = -1
    y[::3, 2] = 0.5
    cases = [(x, y)]
    special = _values(rng, (m, k))
    special[0, 3], special[1, 4], special[2, 5] = np.nan, np.inf, -np.inf
    special[3, :4] = np.float32(1e-40)  # denormals, and products that underflow
    special[4] = np.float32(3e38)  # sums that overflow
    cases.append((special, _values(rng, (k, n))))
    cases.append((_values(rng, (m, 1)), _values(rng, (1, n))))  # k = 1
    tiny = (rng.standard_normal((m, k)) * 1e-20).astype(np.float32)
    cases.append((tiny, (rng.standard_normal((k, n)) * 1e-20).astype(np.float32)))
    for a, b in cases:
        assert _same(L._fma_chain(a, b), L._fma_chain_emulated(a, b))
    # empty operands and one row or column are never BLAS's: the emulation's zeros
    for a, b in [(x[:0], y), (x, y[:, :0]), (x[:1], y), (x, y[:, :1])]:
        assert _same(L._fma_chain(a, b), L._fma_chain_emulated(a, b))
    assert blas32.chain(x[:, :0], y[:0], L._fma_chain_emulated) is None


def test_tiles_of_a_large_product(fresh: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(blas32, "_TILE_WORK", 1 << 11)  # tiles of a small product
    rng = np.random.default_rng(33)
    x, y = _values(rng, (23, 30)), _values(rng, (30, 19))
    rows, cols = blas32._tiles(23, 30, 19)
    assert len(rows) * len(cols) > 4
    assert {hi - lo for lo, hi in rows} <= {3, 4, 5, 6, 7, 8, 9, 10, 11, 12} and rows[-1][1] == 23
    assert len({hi - lo for lo, hi in rows}) <= 2 and len({hi - lo for lo, hi in cols}) <= 2
    assert _same(L._fma_chain(x, y), L._fma_chain_emulated(x, y))


def test_a_blas_that_differs_is_not_used(fresh: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    honest = blas32._product

    def off_by_one_bit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        out = honest(x, y)
        out.view(np.uint32)[-1, -1] ^= 1  # the last tile's last element, its last bit
        return out

    monkeypatch.setattr(blas32, "_product", off_by_one_bit)
    rng = np.random.default_rng(34)
    x, y = _values(rng, (20, 50)), _values(rng, (50, 9))
    assert _same(L._fma_chain(x, y), L._fma_chain_emulated(x, y))
    assert fresh and not any(fresh.values())
    # a product past the emulation's bound is then left to NumPy (not emulated for minutes)
    monkeypatch.setattr(L, "_FMA_MAX_WORK", 1 << 10)
    assert not L._blocked(x, y)


def test_large_products_are_mirrored_where_blas_is_proven(
    fresh: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(35)
    x, y = _values(rng, (16, 900)), _values(rng, (900, 8))
    monkeypatch.setattr(L, "_FMA_MAX_WORK", 1 << 10)  # past the emulation's bound
    proven = L._blocked(x, y)
    assert proven == all(fresh.values())  # (False on a machine whose BLAS is not a chain)
    if proven:
        want = None
        for lo, hi in L._k_blocks(900):
            part = L._fma_chain_emulated(x[:, lo:hi], y[lo:hi])
            want = part if want is None else want + part
        assert _same(L._matmul_fwd(x, y), want)
    monkeypatch.setattr(L, "_BLAS_MAX_WORK", 1 << 16)
    assert not L._blocked(x, y)


def test_a_new_thread_count_is_a_new_class(fresh: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(36)
    x, y = _values(rng, (5, 12)), _values(rng, (12, 4))
    L._fma_chain(x, y)
    assert len(fresh) == 1
    state = blas32._state()
    monkeypatch.setattr(blas32, "_state", lambda: (*state, "one more thread"))
    L._fma_chain(x, y)
    assert len(fresh) == 2  # proved again: OpenBLAS may take another path with more threads
