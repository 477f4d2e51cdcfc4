"""Float32 matrix products are PyTorch's to the bit in the layouts ATen hands to MKL with a
row or column whose elements are apart, sliced operands and the like (`gradcli/ops/linalg.py`,
`_gemv_n_strided` and the layout tests around `_narrow_chain`): recorded with torch 2.13
(tests/ops/data/record_matmul_layouts.py), the rule restated with exact scalars, and a rule one
unit in the last place off found out."""

from __future__ import annotations

import importlib.util
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gradcli.core.tensor import Tensor
from gradcli.ops import linalg as L
from gradcli.surface import composite
from gradcli.surface import linalg as SL

DATA = Path(__file__).resolve().parent / "data"


def _load_record() -> Any:
    spec = importlib.util.spec_from_file_location("_layouts", DATA / "record_matmul_layouts.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REC = _load_record()
CASES = json.loads((DATA / "matmul_layouts.json").read_text())["cases"]


def _ours(i: int) -> np.ndarray:
    name = REC.SHAPES[i][0]
    if name.startswith("f64_linear"):
        x, w, b = REC.numpy_views(i)
        return np.asarray(composite.linear(Tensor(x), Tensor(w), Tensor(b)).data)
    x, y = REC.numpy_views(i)
    if name.startswith("einsum "):
        return np.asarray(SL.einsum(name[7:], Tensor(x), Tensor(y)).data)
    return np.asarray(L._matmul_fwd(x, y))


def _mismatches(only: set | None = None) -> list[tuple]:
    """The recorded cases (of the layouts `only`, or all) whose result gradcli computes with
    other bits."""
    assert len(CASES) == len(REC.SHAPES)
    bad = []
    for i, case in enumerate(CASES):
        assert (case["layout"], case["m"], case["k"], case["n"]) == REC.SHAPES[i]
        if only is not None and case["layout"] not in only:
            continue
        got = _ours(i)
        if "bits" in case and got.reshape(-1).view(np.uint32).tolist() != case["bits"]:
            bad.append(REC.SHAPES[i])
        elif REC.digest(got) != case["digest"]:
            bad.append(REC.SHAPES[i])
    return bad


def test_recorded_layouts_are_pytorchs_bits() -> None:
    assert _mismatches() == []


def test_numpy_would_differ_in_the_recorded_layouts() -> None:
    # the recorded shapes show their order: NumPy's BLAS gives other bits for most of them
    differ = 0
    for i, case in enumerate(CASES):
        name = REC.SHAPES[i][0]
        if name.startswith("f64_linear"):
            x, w, b = REC.numpy_views(i)
            differ += REC.digest(np.matmul(x, w.T) + b) != case["digest"]
            continue
        x, y = REC.numpy_views(i)
        theirs = np.einsum(name[7:], x, y) if name.startswith("einsum ") else np.matmul(x, y)
        differ += REC.digest(theirs) != case["digest"]
    assert differ > len(CASES) // 2


@pytest.mark.parametrize(
    ("kernel", "layouts"),
    [
        (
            "_gemv_n_strided",
            {"row_strided", "row_strided3", "row_strided_sly", "col_strided_xt"}
            | {"mv_t_strided", "mv1_t_strided", "dot_strided"},
        ),
        (
            "_gemv_n",
            {"row_sly", "row_step", "mv_tall_t", "bmm_row", "bmm_row_b1", "bmm_row_newaxis"}
            | {"einsum i,ij->j"},
        ),
        ("_mm_float64", {"f64_nn", "f64_tn", "f64_bmm", "f64_nt"}),
        ("_fma64_chain", {"f64_nn", "f64_tn", "f64_bmm", "f64_nt", "f64_linear"}),
        ("_fma64_sum", {"f64_nn", "f64_linear", "f64_linear_k1"}),
        (
            "_mm_float32",
            {"bmm_col", "bmm_col_newaxis", "sly", "slx_nt", "nt_sly", "tn_sl", "step", "tt"}
            | {"einsum bij,bjk->bik", "einsum ij,kj->ik"},
        ),
    ],
)
def test_a_kernel_one_ulp_off_is_found(
    kernel: str, layouts: set, monkeypatch: pytest.MonkeyPatch
) -> None:
    honest = getattr(L, kernel)

    def off(*args: np.ndarray) -> np.ndarray:
        out = np.array(honest(*args))
        bits = out.reshape(-1).view(np.uint32 if out.dtype == np.float32 else np.uint64)
        bits[-1] += 1  # the last output, one unit in the last place
        return out

    monkeypatch.setattr(L, kernel, off)
    assert {c[0] for c in _mismatches(layouts)} == layouts


def _round(v: Fraction) -> Fraction:
    """v rounded once to float32 (to nearest, ties to even), exactly."""
    near = np.float32(float(v))
    cands = [near, np.nextafter(near, np.float32(np.inf)), np.nextafter(near, np.float32(-np.inf))]
    best = min(cands, key=lambda f: (abs(Fraction(float(f)) - v), int(f.view(np.int32)) & 1))
    return Fraction(float(best))


def _strided_element(p: list[Fraction], grouped: bool) -> Fraction:
    """One output of MKL's column kernel for a vector read with an increment, exactly: in the
    whole groups of 16 outputs the chain of fused steps; after them blocks of 4."""
    s = Fraction(0)
    whole = 0 if grouped else len(p) - len(p) % 4
    for i in range(0, whole, 4):
        s = _round(p[i] + _round(p[i + 2] + s))
        s = _round(s + _round(p[i + 1] + _round(p[i + 3])))
    for i in range(whole, len(p)):
        s = _round(p[i] + s)
    return s


@pytest.mark.parametrize(("k", "n"), [(4, 3), (9, 17), (23, 40), (2, 5), (41, 33)])
def test_strided_kernel_written_with_exact_scalars(k: int, n: int) -> None:
    rng = np.random.default_rng(k * 1000 + n)
    c = rng.standard_normal((k, 3)).astype(np.float32)
    y = rng.standard_normal((k, n)).astype(np.float32)
    got = L._matmul_fwd(c[:, 1:2].T, y)[0]  # strides (1, 3): the increment 3
    assert np.array_equal(L._matmul_fwd(y.T, c[:, 1:2])[:, 0], got)  # x.t() @ a column
    main = n - n % 16
    for j in range(n):
        p = [Fraction(float(c[i, 1])) * Fraction(float(y[i, j])) for i in range(k)]
        assert Fraction(float(got[j])) == _strided_element(p, j < main), (k, n, j)


def test_which_rows_and_columns_are_read_apart() -> None:
    a = np.zeros((6, 4), np.float32)
    y = np.zeros((6, 5), np.float32)
    assert L._strided_vector(a[:, 1:2].T, y)  # strides (1, 4): a transposed column
    assert not L._strided_vector(a[:1], y)  # a contiguous row
    assert not L._strided_vector(a[:, :1].copy().T, y)  # a (6, 1) matrix transposed
    assert not L._strided_vector(np.zeros((3, 12), np.float32)[1:2, ::2], y)  # ATen copies
    x = np.zeros((5, 6), np.float32).T.T
    assert L._strided_vector(x, a[:, 1:2]) and L._strided_vector(x, a[:, 2])
    assert not L._strided_vector(x, a[:, :1].copy()) and not L._strided_vector(x, a[:, 0].copy())
    assert not L._strided_vector(a[:1, :1].T, a[:1])  # one inner index: no increment


def test_layouts_live_against_torch() -> None:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    for i in range(0, len(REC.SHAPES), 5):
        want = REC.torch_result(i)
        assert REC.digest(_ours(i)) == REC.digest(want), REC.SHAPES[i]


def test_float64_fused_chain_is_exact() -> None:
    # each step one rounding of the exact x * y + acc (Fractions), cancelling sums included
    rng = np.random.default_rng(64)
    for t in range(120):
        k = int(rng.integers(1, 10))
        x = rng.standard_normal((2, k)) * np.exp2(rng.integers(-60, 60, (2, k)))
        y = rng.standard_normal((k, 3)) * np.exp2(rng.integers(-60, 60, (k, 3)))
        if t % 3 == 0:
            y[:, 1] = -y[:, 0] * (1 + 2.0**-50)
            y[:, 2] = np.nextafter(-y[:, 0], 0)
        got = L._fma64_chain(x, y)
        for i in range(2):
            for j in range(3):
                acc = 0.0
                for q in range(k):
                    acc = float(Fraction(x[i, q]) * Fraction(y[q, j]) + Fraction(acc))
                assert got[i, j] == acc, (t, i, j)


def test_float64_outside_the_exact_range_is_numpys() -> None:
    rng = np.random.default_rng(65)
    x, y = rng.standard_normal((4, 6)), rng.standard_normal((6, 5))
    assert L._blocked64(x, y)
    for bad in (np.inf, np.nan, 2.0**401, 2.0**-401):
        x2 = x.copy()
        x2[1, 2] = bad
        assert not L._blocked64(x2, y)
        with np.errstate(all="ignore"):
            np.testing.assert_array_equal(L._matmul_fwd(x2, y), np.matmul(x2, y))
    x2 = x.copy()
    x2[0, 0] = 0.0  # zeros are exact
    assert L._blocked64(x2, y)
    # a transposed second operand with fewer than 4 rows (from 4 rows it is dgemm's chain,
    # tests/ops/test_row64_order.py), one row or column, past the bound: not mirrored
    assert not L._blocked64(x[:3], np.asfortranarray(y))
    assert L._blocked64(x, np.asfortranarray(y))
    assert not L._blocked64(x[:1], y) and not L._blocked64(x, y[:, :1])
    big = np.ones((100, 200))
    assert not L._blocked64(big[:, :100], big[:100, :150])  # 100 x 100 x 150 > 2^17
    assert not L._blocked64(np.ones((2, 2100)), np.ones((2100, 2)))  # k past 2^11 steps
