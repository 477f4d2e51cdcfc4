"""Float32 products of two column-major operands (`Q @ R` of LAPACK's factors) under the avx2
family: PyTorch 2.13's bits on an AVX2 machine (`data/gemm_avx2_colmajor_record.py`), which
for inner sizes up to 7 are the row-major product's."""

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
import gemm_avx2_colmajor_record as R  # noqa: E402

sys.path.remove(str(DATA))
RECORDED = {
    tuple(c[:3]): c[3] for c in json.loads((DATA / "gemm_avx2_colmajor.json").read_text())["cases"]
}


@pytest.fixture(autouse=True)
def _avx2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_KERNELS", "avx2")


def _colmajor(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a.T).T


def test_every_recorded_product_is_pytorchs() -> None:
    assert len(RECORDED) == 245
    for m, k, n, a, b in R.cases():
        x, y = _colmajor(a), _colmajor(b)
        r = matmul(Tensor(x), Tensor(y)).data
        assert R.digest(r) == RECORDED[(m, k, n)], (m, k, n)


def test_the_records_tell_the_orders_apart() -> None:
    """NumPy's own product (the fallback before) misses some of the records, and so does the
    kernel with one product 0.1% off: the digests check the order, not only the values."""
    missed = 0
    for m, k, n, a, b in R.cases():
        if R.digest(np.matmul(_colmajor(a), _colmajor(b))) != RECORDED[(m, k, n)]:
            missed += 1
    assert missed >= 10
    m, k, n, a, b = next(c for c in R.cases() if c[1] == 5)
    off = gemm_avx2.mm(_colmajor(a * np.float32(1.001)), _colmajor(b))
    assert off is not None and R.digest(off) != RECORDED[(m, k, n)]


def test_larger_inner_sizes_are_left_unmodelled() -> None:
    x = _colmajor(np.ones((4, 8), np.float32))
    y = _colmajor(np.ones((8, 4), np.float32))
    assert gemm_avx2.mm(x, y) is None
