"""Float64 bmm on the avx2 kernel family: MKL's small dgemm kernel peels the first element of
the rows that start at an odd address, so a matrix's bits depend on where it lies in the
result (the b-th of a batch, b m n doubles in) or in a buffer it is written into; gradcli's
`_bmm_fwd` passes that address on (`gemm_avx2.mm64(out_at=...)`). PyTorch 2.13's results
recorded on an AMD EPYC (tests/ops/data/record_bmm64_avx2.py), compared by sha256."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import cpu
from gradcli.ops import linalg as L

DATA = Path(__file__).resolve().parent / "data"
RECORD = json.loads((DATA / "bmm64_avx2.json").read_text())


def _draw(shape: tuple, seed: int) -> np.ndarray:
    # (the recorder's draw)
    return np.random.default_rng([*shape, seed]).standard_normal(shape)


@pytest.fixture(autouse=True)
def _avx2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")


def _sha(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()


@pytest.mark.parametrize("case", RECORD["bmm"], ids=lambda c: "x".join(map(str, c["shape"])))
def test_batched_float64_products_are_pytorchs(case: dict) -> None:
    b, m, k, n = case["shape"]
    x, y = _draw((b, m, k), 1), _draw((b, k, n), 2)
    assert _sha(L._matmul_record(x, y)) == case["sha"]


@pytest.mark.parametrize("case", RECORD["slots"], ids=lambda c: f"{c['n']}-slot{c['slot']}")
def test_a_product_written_into_a_buffer_follows_its_address(case: dict) -> None:
    n, slot = case["n"], case["slot"]
    x, y = _draw((1, n, n), 3), _draw((1, n, n), 4)
    assert _sha(L._bmm_fwd(x, y, out_at=slot * n * n)) == case["sha"]


def test_the_address_matters_for_these_shapes() -> None:
    # (the check can fail: without the address, some recorded products come out otherwise)
    shas = []
    for case in RECORD["slots"]:
        n = case["n"]
        x, y = _draw((1, n, n), 3), _draw((1, n, n), 4)
        shas.append(_sha(L._bmm_fwd(x, y)) == case["sha"])
    assert not all(shas)
