"""Batched matrix products in PyTorch 2.13's order (ATen's CPU bmm: a plain loop below 400
multiply-adds a matrix, MKL's batched gemm, which is mm's order per matrix, above): recorded
values for torch.bmm, baddbmm, batched matmul and bmm's gradients, float32 and float64; the
plain loop restated with exact scalars; and the rule shown to matter (a sum in another order,
or with fused steps, is caught)."""

from __future__ import annotations

import importlib.util
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gradcli.core.tensor import Tensor
from gradcli.ops import linalg as L
from gradcli.surface import functional as F
from gradcli.surface import linalg as SL
from tests.helpers import machine

DATA = Path(__file__).resolve().parent / "data" / "bmm"


def _load() -> Any:
    spec = importlib.util.spec_from_file_location("_bmm_record", DATA / "record.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REC = _load()
EXPECTED = np.load(DATA / "expected.npz")


def _ours(i: int) -> list[np.ndarray]:
    """Case i's results as gradcli computes them, in parts (baddbmm: beta = alpha = 1, then
    BETA and ALPHA; grad: the first operand's gradient, then the second's)."""
    kind = REC.CASES[i][0]
    a, b, c = REC.operands(i)
    if kind == "bmm":
        parts = [F.bmm(Tensor(a), Tensor(b)).data]
    elif kind == "baddbmm":
        one = SL.baddbmm(Tensor(c), Tensor(a), Tensor(b)).data
        two = SL.baddbmm(Tensor(c), Tensor(a), Tensor(b), beta=REC.BETA, alpha=REC.ALPHA).data
        parts = [one, two]
    elif kind == "matmul4d":
        parts = [(Tensor(a) @ Tensor(b)).data]
    elif kind in ("left", "right_t"):
        ta = Tensor(a, requires_grad=kind == "right_t")
        tb = Tensor(b, requires_grad=kind == "left")
        r = ta @ tb
        r.backward(Tensor(c))
        parts = [r.data, (tb if kind == "left" else ta).grad.data]
    elif kind in ("left_grad", "right_t_grad"):
        ta, tb = Tensor(a, requires_grad=True), Tensor(b, requires_grad=True)
        r = ta @ tb
        r.backward(Tensor(c))
        parts = [r.data, ta.grad.data, tb.grad.data]
    else:
        ta, tb = Tensor(a, requires_grad=True), Tensor(b, requires_grad=True)
        F.bmm(ta, tb).backward(Tensor(c))
        parts = [ta.grad.data, tb.grad.data]
    assert all(p.dtype == np.dtype(REC.CASES[i][1]) for p in parts)
    return [np.asarray(p).reshape(-1).astype(np.float64) for p in parts]


def _mirrored(dtype: str, m: int, k: int, n: int) -> bool:
    """Where gradcli claims PyTorch's bits for one batched product (m x k times k x n): the
    plain loop, or float32 matrices of 2 rows and columns or more (mm's order per matrix).
    Not claimed: float64 past the plain loop (MKL's dgemm, not mirrored for mm either) and one
    row or column past it (MKL's batched gemm kernels for vectors)."""
    return m * k * n < 400 or (dtype == "float32" and m >= 2 and n >= 2)


def _claims(case: tuple) -> list[bool]:
    kind, dtype, _, m, k, n, _, tb = case
    if kind == "left":  # bmm with the matrix expanded; the batch's gradient a bmm too
        return [_mirrored(dtype, m, k, n), _mirrored(dtype, k, m, n)]
    if kind == "right_t":
        return [_mirrored(dtype, m, k, n), _mirrored(dtype, m, n, k)]
    if kind in ("left_grad", "right_t_grad"):
        # one folded mm and its gradients' mm's: float32 (MKL's sgemm order), not float64
        return [dtype == "float32"] * 3
    if kind == "grad":
        return [_mirrored(dtype, m, n, k), _mirrored(dtype, k, m, n)]
    one = _mirrored(dtype, m, k, n)
    if kind == "baddbmm":
        # MKL's gemm with alpha != 1 and a transposed second operand: not mirrored
        return [one, one and (m * k * n < 400 or not tb)]
    return [one]


def _expected() -> list[np.ndarray]:
    ends = np.cumsum(EXPECTED["lengths"])
    return np.split(EXPECTED["values"], ends[:-1])


def _blas_dependent(case: tuple) -> bool:
    """A product of two column-major float32 matrices, which gradcli leaves to NumPy's BLAS:
    PyTorch's bits only where that BLAS is an AVX-512 one (tests/helpers/machine.py)."""
    return case[-2] and case[-1] and not machine.blas_as_recorded()


def test_recorded_batched_products_are_pytorchs() -> None:
    want = _expected()
    assert len(want) == len(REC.CASES)
    wrong, claimed, unclaimed_equal = [], 0, 0
    for i, case in enumerate(REC.CASES):
        got = _ours(i)
        assert sum(p.size for p in got) == want[i].size
        pieces = np.split(want[i], np.cumsum([p.size for p in got])[:-1])
        for g, w, claim in zip(got, pieces, _claims(case)):
            same = np.array_equal(g.view(np.uint64), w.view(np.uint64))
            claimed += claim
            unclaimed_equal += same and not claim
            if claim and not same and not _blas_dependent(case):
                wrong.append(case)
    assert not wrong, f"{len(wrong)} cases differ from PyTorch, e.g. {wrong[:5]}"
    assert claimed >= 220


def test_recorded_einsums_are_pytorchs() -> None:
    ends = np.cumsum(EXPECTED["einsum_lengths"])
    want = np.split(EXPECTED["einsum"], ends[:-1])
    assert len(want) == len(REC.EINSUM_CASES)
    wrong, numpy_differs = [], 0
    for i, case in enumerate(REC.EINSUM_CASES):
        x, y = REC.einsum_operands(i)
        out = SL.einsum(case[0], Tensor(x), Tensor(y)).data
        assert out.dtype == np.dtype(case[1])
        got = np.asarray(out).reshape(-1).astype(np.float64)
        if not np.array_equal(got.view(np.uint64), want[i].view(np.uint64)):
            wrong.append(case)
        numpy_differs += not np.array_equal(np.einsum(case[0], x, y).reshape(-1), want[i])
    assert not wrong, f"{len(wrong)} einsums differ from PyTorch, e.g. {wrong[:5]}"
    assert numpy_differs >= 10  # NumPy's einsum sums in other orders: the data tells them apart


def _small_cases() -> list[int]:
    return [
        i
        for i, (kind, _, _, m, k, n, _, _) in enumerate(REC.CASES)
        if kind == "bmm" and m * k * n < 400 and k >= 3
    ]


def test_the_recorded_cases_tell_orders_apart() -> None:
    # NumPy's BLAS (pairwise, blocked) and a fused chain differ from PyTorch's plain loop in
    # some recorded elements: the data can catch a rule 1 ulp off
    want = _expected()
    numpy_differs = fused_differs = 0
    for i in _small_cases():
        a, b, _ = REC.operands(i)
        if not np.array_equal(np.matmul(a, b).reshape(-1).astype(np.float64), want[i]):
            numpy_differs += 1
        if a.dtype == np.float32:
            acc = np.zeros((a.shape[0], a.shape[1], b.shape[2]), np.float32)
            for k in range(a.shape[2]):  # fused: one rounding of acc + a * b
                acc = (acc + a[:, :, k, None].astype(np.float64) * b[:, None, k, :]).astype(
                    np.float32
                )
            if not np.array_equal(acc.reshape(-1).astype(np.float64), want[i]):
                fused_differs += 1
    assert numpy_differs >= 5 and fused_differs >= 5


def test_a_rule_one_ulp_off_fails() -> None:
    want = _expected()
    i = next(i for i in _small_cases() if REC.CASES[i][1] == "float32")
    got = _ours(i)[0]
    j = int(np.argmax(np.abs(got)))
    got32 = got.astype(np.float32)
    got32[j] = np.nextafter(got32[j], np.float32(np.inf))
    assert not np.array_equal(got32.astype(np.float64).view(np.uint64), want[i].view(np.uint64))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_plain_loop_is_each_step_rounded(dtype: type) -> None:
    # restated with exact scalars: acc = round(acc + round(a * b)) in the order of k
    rng = np.random.default_rng(5)
    a = rng.standard_normal((2, 3, 40)).astype(dtype)
    b = rng.standard_normal((2, 40, 3)).astype(dtype)
    got = L._matmul_fwd(a, b)
    for bi in range(2):
        for i in range(3):
            for j in range(3):
                acc = dtype(0)
                for k in range(40):
                    p = dtype(Fraction(float(a[bi, i, k])) * Fraction(float(b[bi, k, j])))
                    acc = dtype(Fraction(float(acc)) + Fraction(float(p)))
                assert got[bi, i, j] == acc


def test_plain_loop_ignores_layout_and_broadcasts() -> None:
    rng = np.random.default_rng(6)
    a = rng.standard_normal((3, 30, 4)).astype(np.float32)  # transposed view below
    b = rng.standard_normal((1, 30, 3)).astype(np.float32)
    got = L._matmul_fwd(a.transpose(0, 2, 1), b)
    want = L._matmul_fwd(
        np.ascontiguousarray(a.transpose(0, 2, 1)), np.ascontiguousarray(np.repeat(b, 3, 0))
    )
    assert got.shape == (3, 4, 3) and np.array_equal(got, want)


def test_gradients_match_finite_differences() -> None:
    rng = np.random.default_rng(7)
    a = Tensor(rng.standard_normal((2, 3, 4)), requires_grad=True)
    b = Tensor(rng.standard_normal((2, 4, 5)), requires_grad=True)
    g = rng.standard_normal((2, 3, 5))
    F.bmm(a, b).backward(Tensor(g))
    h = 1e-6
    for t, other, first in ((a, b, True), (b, a, False)):
        num = np.zeros(t.data.shape)
        for idx in np.ndindex(*t.data.shape):
            up, dn = t.data.copy(), t.data.copy()
            up[idx] += h
            dn[idx] -= h
            if first:
                num[idx] = ((np.matmul(up, other.data) - np.matmul(dn, other.data)) * g).sum()
            else:
                num[idx] = ((np.matmul(other.data, up) - np.matmul(other.data, dn)) * g).sum()
        assert np.allclose(t.grad.data, num / (2 * h), rtol=1e-6, atol=1e-8)
