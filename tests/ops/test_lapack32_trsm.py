"""float32 torch.linalg.solve_triangular is PyTorch's to the bit for n <= 7 (float64: n <= 4, one
right-hand side n <= 7) where
`gradcli.ops.lapack32.trsm` mirrors MKL's strsm order (rows in pairs, each product rounded on
its own; one right-hand side: subtracted one by one, divided; several: summed, the reciprocal
multiplies). Recorded with torch 2.13 (tests/ops/data/record_trsm32.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from gradcli.ops import lapack32
from gradcli.ops import matrices as M

HERE = Path(__file__).parent / "data"
sys.path.insert(0, str(HERE))
from record_trsm32 import digest, digest64, draw  # noqa: E402  (A and B drawn as recorded)

sys.path.remove(str(HERE))
DATA = json.loads((HERE / "trsm32.json").read_text())
CASES = DATA["cases"]


def _key(key: str) -> tuple[int, int, bool, bool]:
    n, cols, upper, unit = key.removeprefix("f64/").removeprefix("R/").split("/")
    return int(n), int(cols), upper == "1", unit == "1"


F32_CASES = sorted(k for k in CASES if not k.startswith(("f64/", "R/")))
RIGHT_CASES = sorted(k for k in CASES if k.startswith("R/"))


@pytest.mark.parametrize("key", RIGHT_CASES)
def test_solve_triangular_left_false_bits(key: str) -> None:
    """X A = B (left=False) with A row-major: MKL's strsm 'R', a column sweep per row of X, the
    reciprocal of the diagonal multiplying when X has several rows. Given to the op as the
    surface gives it: A^T X^T = B^T, A^T a column-major view."""
    n, cols, upper, unit = _key(key)
    a, b = draw(n, cols, upper, 0)
    at = np.swapaxes(a, -1, -2)
    xt = M._solve_triangular_fwd(at, b, upper=not upper, unitriangular=unit, lapack_layout=False)
    assert digest(np.swapaxes(xt, -1, -2)) == CASES[key]["digest"]
    if n >= 3 and cols > 1:  # (the left=True rule on the same system misses)
        other = lapack32.trsm(np.ascontiguousarray(at), b, not upper, unit)
        assert digest(np.swapaxes(other, -1, -2)) != CASES[key]["digest"]


F64_CASES = sorted(k for k in CASES if k.startswith("f64/"))


@pytest.mark.parametrize("key", F64_CASES)
def test_solve_triangular_float64_bits(key: str) -> None:
    """dtrsm: one product at a time whatever the number of right-hand sides (several: the
    reciprocal of the diagonal multiplies); the float32 rule's sums miss."""
    n, cols, upper, unit = _key(key)
    a, b = draw(n, cols, upper, 0)
    a, b = a.astype(np.float64), b.astype(np.float64)
    x = M._solve_triangular_fwd(a, b, upper=upper, unitriangular=unit)
    if cols > 1 and n > lapack32.trsm64_multi_max(
        True
    ):  # (not mirrored: NumPy's order, which misses)
        assert lapack32.trsm(a, b, upper, unit) is None
        return
    assert digest64(x) == CASES[key]["digest"]


def test_float64_differs_from_numpys_sweep_somewhere() -> None:
    misses = 0
    for key in F64_CASES:
        n, cols, upper, unit = _key(key)
        a, b = draw(n, cols, upper, 0)
        a, b = a.astype(np.float64), b.astype(np.float64)
        misses += digest64(_old_order(a, b, upper, unit, False)) != CASES[key]["digest"]
    assert misses >= 20


@pytest.mark.parametrize("key", F32_CASES)
def test_solve_triangular_bits(key: str) -> None:
    n, cols, upper, unit = _key(key)
    a, b = draw(n, cols, upper, 0)
    x = M._solve_triangular_fwd(a, b, upper=upper, unitriangular=unit)
    case = CASES[key]
    if "bits" in case:
        assert np.ascontiguousarray(x[:2]).view(np.uint32).ravel().tolist() == case["bits"]
    assert digest(x) == case["digest"]


def _old_order(a: np.ndarray, b: np.ndarray, upper: bool, unit: bool, rcp: bool) -> np.ndarray:
    """A column sweep (what gradcli did before): each solved row times its column subtracted
    from the rows still to solve; the diagonal divides, or its reciprocal multiplies."""
    x, n = b.copy(), a.shape[-1]
    for k in range(n - 1, -1, -1) if upper else range(n):
        if not unit:
            d = a[:, k, k, None]
            x[:, k] = x[:, k] * (np.float32(1) / d) if rcp else x[:, k] / d
        rows = slice(0, k) if upper else slice(k + 1, n)
        x[:, rows] -= a[:, rows, k, None] * x[:, k, None, :]
    return x


def test_other_orders_fail() -> None:
    """The recorded bits tell orders apart: the column sweep (divide or multiply by the
    reciprocal) misses most cases from n = 3, and perturbing one entry of A by 0.1% changes
    the digest."""
    misses = {False: 0, True: 0}
    for key in F32_CASES:
        n, cols, upper, unit = _key(key)
        if n < 3:
            continue
        a, b = draw(n, cols, upper, 0)
        for rcp in (False, True):
            misses[rcp] += digest(_old_order(a, b, upper, unit, rcp)) != CASES[key]["digest"]
        i, j = (n - 1, 0) if not upper else (0, n - 1)
        a[0, i, j] *= np.float32(1.001)
        x = M._solve_triangular_fwd(a, b, upper=upper, unitriangular=unit)
        assert digest(x) != CASES[key]["digest"]
    assert misses[False] >= 70 and misses[True] >= 70


def test_orders_partition_the_columns() -> None:
    """Every row subtracts each solved column exactly once."""
    for n in range(1, lapack32.TRSM_MAX + 1):
        for upper in (False, True):
            for multi in (False, True):
                for unit in (False, True):
                    for i in range(n):
                        groups = lapack32._trsm_groups(n, i, upper, multi, unit)
                        cols = sorted(c for g in groups for c in g)
                        assert cols == (list(range(i + 1, n)) if upper else list(range(i)))


def test_example_from_the_report() -> None:
    """A = randn(4, 4).triu() + 3 I, three right-hand sides: the entry PyTorch prints as
    -0.33623645 (the column sweep gave -0.33623648)."""
    a = np.array(
        [[3.5, -0.25, 1.125, 0.75], [0, 2.0, -1.5, 0.5], [0, 0, 3.25, -0.625], [0, 0, 0, 2.5]],
        dtype=np.float32,
    )
    b = np.array(
        [[1.0, -0.5, 0.3], [0.7, 0.2, -1.1], [-0.4, 0.9, 0.6], [0.1, -0.8, 1.3]], np.float32
    )
    x = M._solve_triangular_fwd(a, b, upper=True)
    ref = np.linalg.solve(a.astype(np.float64), b.astype(np.float64))
    assert np.allclose(x, ref, rtol=1e-6, atol=1e-7)
    assert x.strides == (4, 16)  # column-major, as ATen returns it


def test_unmeasured_keep_numpys_order() -> None:
    a, b = draw(17, 3, False, 0)
    assert lapack32.trsm(a, b, False, False) is None
    a8, b8 = draw(8, 1, False, 0)
    assert lapack32.trsm(a8.astype(np.float64), b8.astype(np.float64), False, False) is None
    a6, b6 = draw(5, 3, True, 0)
    assert lapack32.trsm(a6.astype(np.float64), b6.astype(np.float64), True, False) is None
    a4, b4 = draw(4, 1, True, 0)
    f64 = a4.astype(np.float64), b4.astype(np.float64)
    assert lapack32.trsm(*f64, True, False, transposed=False) is None


# 8 to 16 rows: the same order, the nearest measured (tests/ops/data/record_trsm32_large.py)
LARGE = json.loads((HERE / "trsm32_large.json").read_text())["cases"]


def _large(key: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A (in the case's layout), B, gradcli's X and PyTorch's first systems' X."""
    layout, n, cols, upper = key.split("/")
    a, b = draw(int(n), int(cols), upper == "1", 1)
    if layout == "C":
        a = np.ascontiguousarray(np.swapaxes(a, -1, -2)).swapaxes(-1, -2)
    x = M._solve_triangular_fwd(a, b, upper=upper == "1")
    kept = np.array(LARGE[key]["bits"], dtype=np.uint32).view(np.float32)
    return a, b, x, kept.reshape((-1,) + x.shape[1:])


# one right-hand side: exact for a column-major A, and a row-major one at 8 and 10 rows
EXACT_LARGE = sorted(
    k
    for k in LARGE
    if k.endswith("/1/0") or k.endswith("/1/1")
    if k.startswith("C/") or k.split("/")[1] in ("8", "10")
)


@pytest.mark.parametrize("key", EXACT_LARGE)
def test_one_right_hand_side_up_to_16_rows_bits(key: str) -> None:
    _, _, x, _ = _large(key)
    assert digest(x) == LARGE[key]["digest"]


@pytest.mark.parametrize("key", sorted(k for k in LARGE if k not in EXACT_LARGE))
def test_past_7_rows_the_order_is_nearer_than_numpys_sweep(key: str) -> None:
    """Several right-hand sides (or a row-major A past 10 rows): not exact, but more of
    PyTorch's entries than the column sweep gradcli used before, and at least 55% of them."""
    a, b, x, want = _large(key)
    layout, n, cols, upper = key.split("/")
    got = (x[: len(want)] == want).mean()
    old = _old_order(np.ascontiguousarray(a), b.copy(), upper == "1", False, False)
    before = (old[: len(want)] == want).mean()
    assert got >= 0.55 and got >= before, (got, before)


# dtrsm 'T' (a row-major A) with 3 right-hand sides at n = 5, as PyTorch 2.13 printed it on Zen 4
# (MKL's AVX2 code): the rows in pairs one product at a time, the reciprocal multiplying
_ZEN4_5X5 = {
    True: [
        "0x1.b415fa003b6a2p-2",
        "0x1.f8b4ce8cd1706p-4",
        "-0x1.17387a874e4b1p-2",
        "-0x1.77c78015ae134p-2",
        "-0x1.7a364abbc55d0p-3",
        "0x1.195b98d75215bp-3",
        "0x1.1a1ca04622e93p-3",
        "0x1.088d5b5b4803cp-2",
        "0x1.77ae66d27bb40p-3",
        "-0x1.22c526b9502d4p-4",
        "-0x1.cd82e2770420cp-2",
        "-0x1.f511464bcd94fp-2",
        "-0x1.221ee75a65641p-4",
        "0x1.e36859ae0ef67p-3",
        "0x1.75056ba4b0f98p-2",
    ],
    False: [
        "0x1.36b98f5597fb0p-2",
        "0x1.824ca03cffea3p-3",
        "-0x1.1a63abdc5a8ecp-4",
        "-0x1.052b6d514d8b7p-1",
        "-0x1.e65f4cbed936bp-2",
        "-0x1.49504e012c4ecp-4",
        "0x1.06438925c01b8p-2",
        "0x1.45a0756b58927p-2",
        "0x1.1d1fb2621408ep-3",
        "0x1.a8d8d503ebd1dp-5",
        "-0x1.68d70984c6187p-3",
        "-0x1.15685912cea40p-2",
        "-0x1.35789b21245f8p-2",
        "0x1.c438ec788dd45p-4",
        "0x1.c2062a1ae58a8p-2",
    ],
}


@pytest.mark.parametrize("upper", [True, False])
def test_float64_five_rows_on_zen4(upper: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    from gradcli.core import cpu

    monkeypatch.setenv(cpu.ENV, "zen4")
    i = np.arange(25).reshape(5, 5)
    a = np.sin(i * 1.7 + 0.3) + 3 * np.eye(5)
    b = np.cos(np.arange(15).reshape(5, 3) * 0.9)
    x = np.ascontiguousarray(M._solve_triangular_fwd(a, b, upper=upper))
    assert [v.hex() for v in x.ravel().tolist()] == _ZEN4_5X5[upper]
