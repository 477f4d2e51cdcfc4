"""Float32 and float64 products with one row or one column whose elements ATen hands MKL
apart (gemm 'N', 'T' with an increment: `c[:, j:j+1].t() @ h`, `h.t() @ c[:, j:j+1]`, mv of
a transposed matrix and `c[:, j]`), a column ATen copies first (`c[:, ::s]`, steps (s, s))
a transposed matrix times a column of its own (nn.Linear(1, n)'s weight gradient), and
the same with the matrix a column range of a wider one (`wide[:, :n]`):
PyTorch 2.13's bits on a Zen 4 EPYC (`data/gemm_avx2_increment_record.py`). MKL's AVX2 code
adds them in the contiguous vector's order there; the copied column is the contiguous one;
float64's column is MKL's column kernel (`gemm_avx2.column64`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from gradcli.ops import linalg

DATA = Path(__file__).resolve().parent / "data"
sys.path.insert(0, str(DATA))
import gemm_avx2_increment_record as R  # noqa: E402

sys.path.remove(str(DATA))
RECORDED = {
    c[0]: c[1:] for c in json.loads((DATA / "gemm_avx2_increment.json").read_text())["cases"]
}


def _products(h: np.ndarray, c: np.ndarray, j: int, s: int, wide: np.ndarray) -> list[np.ndarray]:
    col, item = c[:, j : j + 1], c.itemsize
    assert col.strides == (item * s, item) and c[:, ::s].strides == (item * s, item * s)
    return [
        linalg._matmul_fwd(col.T, h),
        linalg._matmul_fwd(h.T, col),
        linalg._matmul_fwd(h.T, c[:, j]),
        linalg._matmul_fwd(h.T, c[:, ::s]),
        linalg._matmul_fwd(h.T, np.ascontiguousarray(c[:, :1])),
        linalg._matmul_fwd(col.T, wide[:, : h.shape[1]]),
        linalg._matmul_fwd(wide[:, : h.shape[1]].T, col),
        linalg._matmul_fwd(wide[:, : h.shape[1]].T, c[:, j]),
    ]


@pytest.mark.parametrize("family", ["zen4", "avx2"])
def test_every_recorded_product_is_pytorchs(monkeypatch: pytest.MonkeyPatch, family: str) -> None:
    monkeypatch.setenv("GRADCLI_KERNELS", family)
    assert len(RECORDED) == R.CASES
    for i, h, c, j, s, wide in R.cases():
        for kind, (r, want) in enumerate(zip(_products(h, c, j, s, wide), RECORDED[i])):
            assert R.digest(r) == want, (i, kind, h.shape, s)


def test_the_records_tell_the_orders_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """The other family's orders (MKL's AVX-512 code's strided kernel, NumPy's for float64)
    miss most of the records: the digests check the order, not only the values."""
    monkeypatch.setenv("GRADCLI_KERNELS", "avx512")
    missed = 0
    for i, h, c, j, s, wide in R.cases():
        got = _products(h, c, j, s, wide)
        missed += sum(R.digest(r) != want for r, want in zip(got[:3], RECORDED[i][:3]))
    assert missed >= 80
