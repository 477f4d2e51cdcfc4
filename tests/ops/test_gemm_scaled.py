"""MKL's dgemm / sgemm on the zen4 (and avx2) kernel family where the products were not modelled
before: the last m mod 4 rows beside dgemm's chains (`ops.gemm_avx2._pairs64`) and addmm /
baddbmm / addbmm with beta or alpha other than 1 (`gemm_avx2.addmm_scaled`). PyTorch 2.13's
bits recorded on an AMD Zen 4 (`data/gemm_scaled_record.py`, inputs shared), every element."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from gradcli.core.tensor import Tensor
from gradcli.ops import gemm_avx2
from gradcli.ops.arithmetic import matmul
from gradcli.surface import linalg as SL
from gradcli.surface.composite import linear
from gradcli.surface.extras import addbmm

DATA = Path(__file__).resolve().parent / "data"
sys.path.insert(0, str(DATA))
import gemm_scaled_record as R  # noqa: E402

sys.path.remove(str(DATA))
WANT = json.loads((DATA / "gemm_scaled.json").read_text())


@pytest.fixture(autouse=True)
def _zen4(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_KERNELS", "zen4")


@pytest.mark.parametrize("i", range(len(R.TAIL)))
def test_rows_beside_the_chains_are_pytorchs(i: int) -> None:
    x, w, b = R.tail_inputs(i)
    prod = matmul(Tensor(x), Tensor(np.ascontiguousarray(w).T)).data
    lin = linear(Tensor(x), Tensor(w), Tensor(b)).data
    assert [R.sha(prod), R.sha(lin)] == WANT["tail"][i]


def test_the_pairs_order_is_not_the_dot_kernels() -> None:
    # the model the rows took before (the dot kernel) misses the records: the test above can fail
    missed = 0
    for i in range(len(R.TAIL)):
        x, w, _ = R.tail_inputs(i)
        m = x.shape[0]
        mc = m - m % 4
        out = gemm_avx2.mm64(x, np.ascontiguousarray(w).T)
        out[mc:] = gemm_avx2._dots64(x[mc:], w, mc)
        missed += R.sha(out) != WANT["tail"][i][0]
    assert missed >= len(R.TAIL) // 2


def _scaled(i: int) -> np.ndarray:
    kind, c, x, y, beta, alpha = R.scaled_inputs(i)
    fn = {"addmm": SL.addmm, "baddbmm": SL.baddbmm, "addbmm": addbmm}[kind]
    return fn(Tensor(c), Tensor(x), Tensor(y), beta=beta, alpha=alpha).data


@pytest.mark.parametrize("i", range(len(R.SCALED)))
def test_scaled_products_are_pytorchs(i: int) -> None:
    assert R.sha(_scaled(i)) == WANT["scaled"][i]


def test_the_scaled_records_tell_the_orders_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    # beta * input + alpha * (the product), each rounded (the avx512 family's) misses most
    monkeypatch.setenv("GRADCLI_KERNELS", "avx512")
    missed = sum(R.sha(_scaled(i)) != WANT["scaled"][i] for i in range(len(R.SCALED)))
    assert missed >= len(R.SCALED) // 2
