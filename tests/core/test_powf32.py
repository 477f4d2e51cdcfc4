"""core.powf32: the exact float32 FMA emulation, SLEEF's powf against PyTorch's recorded bits,
and (with torch installed) a live cross-check of whole kernels including ATen's loop split."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import powf32

DATA = Path(__file__).parent / "data" / "powf32_torch.txt"
F32 = np.float32


def _round32(v: Fraction) -> np.float32:
    """The exact rational v rounded to nearest float32, ties to even (by comparing with the
    float32 neighbours of a first guess)."""
    guess = np.float32(float(v))
    cands = [np.nextafter(guess, F32(-np.inf)), guess, np.nextafter(guess, F32(np.inf))]

    def key(c: np.float32) -> tuple:
        return (abs(Fraction(float(c)) - v), int(np.array(c).view(np.int32)) & 1)

    return min(cands, key=key)


def _exact_fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    return np.array(
        [
            _round32(Fraction(x) * Fraction(y) + Fraction(z))
            for x, y, z in zip(a.tolist(), b.tolist(), c.tolist())
        ],
        dtype=F32,
    )


def _double_rounding_family(rng: np.random.Generator, n: int) -> tuple:
    """a * b + c whose float64 sum lands exactly on a float32 halfway point while the exact
    sum is just below it: rounding twice gives the wrong neighbour."""
    t = rng.integers(1, 60, n) * 2.0**-21
    a = (1 + t).astype(F32)
    b = ((1 - t) * 2.0**-18).astype(F32)
    c = (64 + (2 * rng.integers(0, 1000, n) + 1) * 2.0**-17).astype(F32)
    sign = rng.choice(np.array([-1, 1], dtype=F32), n)
    return a * sign, b, c * sign


def test_fma32_is_one_rounding_random_and_adversarial() -> None:
    rng = np.random.default_rng(7)
    n = 1500
    a = rng.standard_normal(n).astype(F32)
    b = rng.standard_normal(n).astype(F32)
    cases = [
        (a, b, rng.standard_normal(n).astype(F32)),
        (a, b, -(a * b)),  # the product's own rounding error
        (a, b, (rng.standard_normal(n) * 1e-8).astype(F32)),
        (a * F32(1e-30), b * F32(1e-10), (rng.standard_normal(n) * 1e-40).astype(F32)),  # subnormal
        _double_rounding_family(rng, n),
    ]
    for x, y, z in cases:
        got = powf32.fma32(x, y, z)
        want = _exact_fma(x, y, z)
        assert np.array_equal(got.view(np.uint32), want.view(np.uint32))


def _pieces(x: np.ndarray, sizes: list[int]) -> list[np.ndarray]:
    out, lo = [], 0
    for s in sizes:
        out.append(x[lo : lo + s])
        lo += s
    return out


def test_fma32_small_arrays_match_the_exact_rounding() -> None:
    # Arrays of up to `_SMALL` elements take their own path (the check of midpoints on the
    # whole array); the same cases as above in pieces of 1 to 256 elements, a scalar b and c
    # broadcast, and the special values (NaN, inf, signed zeros, subnormals, the largest).
    rng = np.random.default_rng(11)
    n = 381
    a = rng.standard_normal(n).astype(F32)
    b = rng.standard_normal(n).astype(F32)
    sizes = [1, 2, 3, 7, 16, 31, 32, 33, 256]
    special = np.array(
        [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-40, 1.1754942e-38, 3.4e38, 1, -1],
        dtype=F32,
    )
    cases = [
        (a, b, rng.standard_normal(n).astype(F32)),
        (a, b, -(a * b)),
        (a * F32(1e-30), b * F32(1e-10), (rng.standard_normal(n) * 1e-40).astype(F32)),
        _double_rounding_family(rng, n),
        (a, -np.ones(n, F32), rng.standard_normal(n).astype(F32)),  # exact sums: all candidates
        tuple(rng.choice(special, n) for _ in range(3)),
    ]
    for x, y, z in cases:
        for px, py, pz in zip(*(_pieces(v, sizes) for v in (x, y, z))):
            assert px.size <= powf32._SMALL
            with np.errstate(all="ignore"):
                got = powf32.fma32(px, py, pz)
                want = (px.astype(np.float64) * py + pz).astype(F32)  # for NaN and inf
            finite = np.isfinite(px) & np.isfinite(py) & np.isfinite(pz)
            # (an exact zero has IEEE's sign, as the float64 sum; past float32's range, inf)
            ok = finite & (want != 0) & np.isfinite(want)
            want[ok] = _exact_fma(px[ok], py[ok], pz[ok])
            assert np.array_equal(np.isnan(got), np.isnan(want))
            assert np.array_equal(
                got.view(np.uint32)[~np.isnan(got)], want.view(np.uint32)[~np.isnan(want)]
            )
    # scalars b and c broadcast into a's shape, as the kernels call it
    x, y, z = _double_rounding_family(rng, 40)
    for i in range(0, 40, 8):
        got = powf32.fma32(x[i : i + 8], y[i], z[i])
        want = _exact_fma(x[i : i + 8], np.full(8, y[i]), np.full(8, z[i]))
        assert np.array_equal(got.view(np.uint32), want.view(np.uint32))


def test_double_rounding_family_defeats_naive_rounding() -> None:
    # The adversarial cases above must really be adversarial: float64 then float32 fails them.
    a, b, c = _double_rounding_family(np.random.default_rng(8), 200)
    naive = (a.astype(np.float64) * b + c).astype(F32)
    assert np.all(naive != _exact_fma(a, b, c))


def _recorded() -> tuple:
    rows = [
        line.split()
        for line in DATA.read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    x, y, t = (np.array([int(r[i], 16) for r in rows], dtype=np.uint32) for i in range(3))
    return x.view(F32), y.view(F32), t


def test_sleef_powf_matches_recorded_torch_bits() -> None:
    x, y, want = _recorded()
    assert len(want) > 3000
    got = powf32.sleef_powf(x, y).view(np.uint32)
    nan = np.isnan(want.view(F32))
    assert np.array_equal(np.isnan(got.view(F32)), nan)
    assert np.array_equal(got[~nan], want[~nan])


def test_recorded_cases_are_hard_for_float64_rounding() -> None:
    # The recorded set keeps its teeth: rounding the float64 power (gradcli before) is wrong
    # on about a tenth of it, NumPy's float32 power on much of it (most on AVX-512 machines, a
    # tenth with the AVX2 build of NumPy's power: it is not the same on every CPU).
    x, y, want = _recorded()
    with np.errstate(all="ignore"):
        old = np.power(x.astype(np.float64), y.astype(np.float64)).astype(F32)
        single = np.power(x, y)
    assert np.sum(old.view(np.uint32) != want) > 200
    assert np.sum(single.view(np.uint32) != want) > 200


def test_vector_mask_follows_atens_loop_split() -> None:
    st = powf32._bstrides
    assert powf32._vector_mask((64,), [st((64,), (64,))] * 2) is None
    m = powf32._vector_mask((40,), [st((40,), (40,))] * 2)
    assert m.sum() == 32 and not m[32:].any()
    m = powf32._vector_mask((3, 40), [st((3, 40), (3, 40))] * 2)  # coalesced to 120
    assert m.sum() == 96
    m = powf32._vector_mask((3, 40), [st((3, 1), (3, 40)), st((40,), (3, 40))])  # rows of 40
    assert m.sum() == 3 * 32
    m = powf32._vector_mask((5,), [st((), (5,)), st((), (5,))])  # both broadcast: scalar loop
    assert not m.any()


@pytest.mark.parametrize(
    ("xs", "ys"),
    [
        ((1,), (1,)),
        ((7,), (7,)),
        ((16,), (16,)),
        ((33,), (33,)),
        ((2000,), (2000,)),
        ((40, 1), (1, 40)),
        ((40, 33), (33,)),
        ((3,), ()),
        ((), (50,)),
        ((2, 3, 35), (3, 1)),
    ],
)
def test_live_pow_tensor_tensor_against_torch(xs: tuple, ys: tuple) -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(abs(hash((xs, ys))) % 2**32)
    x = rng.uniform(-4, 10, xs).astype(F32)
    y = rng.uniform(-5, 5, ys).astype(F32)
    y = np.where(x.mean() < 0, np.round(y), y).astype(F32)
    with torch.no_grad():
        torch.set_num_threads(1)
        want = torch.pow(torch.from_numpy(x), torch.from_numpy(y)).numpy()
    got = powf32.pow_tensor_tensor(x, y)
    same = (got.view(np.uint32) == want.view(np.uint32)) | (np.isnan(got) & np.isnan(want))
    assert same.all()


@pytest.mark.parametrize("p", [2.5, 1.7, -1.3, 0.3, 4.0, -3.0])
@pytest.mark.parametrize("n", [1, 15, 31, 33, 1000])
def test_live_pow_tensor_scalar_against_torch(p: float, n: int) -> None:
    torch = pytest.importorskip("torch")
    x = np.random.default_rng(n).uniform(-10, 10, n).astype(F32)
    torch.set_num_threads(1)
    want = torch.from_numpy(x).pow(p).numpy()
    got = powf32.pow_tensor_scalar(x, p)
    same = (got.view(np.uint32) == want.view(np.uint32)) | (np.isnan(got) & np.isnan(want))
    assert same.all()
