"""Float32 products of row-strided views (`x[:, t] @ w` of a (m, s, k) tensor, `h[:, a:b]`)
under the avx2 family: PyTorch 2.13's bits on an AVX2 machine
(`data/gemm_avx2_strided_record.py`). MKL takes such an operand with its rows a leading
dimension apart; the kernels' orders are the contiguous operand's."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from gradcli.core.tensor import Tensor
from gradcli.ops import gemm_avx2
from gradcli.ops.arithmetic import matmul

DATA = Path(__file__).resolve().parent / "data"
sys.path.insert(0, str(DATA))
import gemm_avx2_strided_record as R  # noqa: E402

sys.path.remove(str(DATA))
RECORDED = {c[0]: c[1:] for c in json.loads((DATA / "gemm_avx2_strided.json").read_text())["cases"]}


@pytest.fixture(autouse=True)
def _avx2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_KERNELS", "avx2")


def _products(x: np.ndarray, w, v, b, g) -> list[np.ndarray | None]:
    return [
        matmul(Tensor(x), Tensor(w)).data,
        gemm_avx2.mm(x, v.T),
        gemm_avx2.mm(x, v.T, b),
        gemm_avx2.mm(g.T, x),
    ]


def test_every_recorded_product_is_pytorchs() -> None:
    assert len(RECORDED) == R.CASES
    unmodelled = 0
    for i, _base, _at, x, w, v, b, g in R.cases():
        assert not x.flags.c_contiguous
        for kind, (r, want) in enumerate(zip(_products(x, w, v, b, g), RECORDED[i])):
            if r is None:
                # `g.t() @ x` of a single column: gemv with a leading dimension (not measured)
                assert kind == 3 and x.shape[1] == 1, (i, kind)
                unmodelled += 1
                continue
            assert R.digest(r) == want, (i, kind, x.shape, w.shape)
    assert unmodelled <= 3


def test_the_records_tell_the_orders_apart() -> None:
    """NumPy's products (the fallback before) miss many of the records, and so does the kernel
    with one operand 0.1% off: the digests check the order, not only the values."""
    missed = 0
    for i, _base, _at, x, w, v, b, g in R.cases():
        plain = [x @ w, x @ v.T, (x @ v.T) + b, g.T @ x]
        missed += sum(R.digest(r) != want for r, want in zip(plain, RECORDED[i]))
    assert missed >= 50
    i, _base, _at, x, w, v, b, g = next(iter(R.cases()))
    off = gemm_avx2.mm(x * np.float32(1.001), w)
    assert off is not None and R.digest(off) != RECORDED[i][0]


def test_a_strided_single_column_is_left_unmodelled() -> None:
    x = np.ones((4, 3, 5), np.float32)[:, 1]
    assert gemm_avx2.mm(x, np.ones((5, 1), np.float32)) is None
