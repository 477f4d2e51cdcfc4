"""A float64 row (or vector) times a row-major float64 matrix: MKL's column kernel, each output
the chain of fused multiply-adds over the inner index in order, from zero (gradcli/ops/linalg.py,
`_row64`). Recorded with torch 2.13 (tests/ops/data/record_row64.py)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core.tensor import Tensor
from gradcli.ops import linalg as LA

CASES = json.loads((Path(__file__).parent / "data" / "row64.json").read_text())


def _draw(shape, seed: int) -> np.ndarray:
    return np.random.default_rng([*shape, seed]).standard_normal(shape)


def _sha(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a, dtype=np.float64).tobytes()).hexdigest()[:24]


def _operands(rec):
    k, n, seed = rec["case"]
    return _draw((1, k), seed), _draw((k, n), seed + 1)


@pytest.mark.parametrize("rec", CASES, ids=lambda r: "x".join(map(str, r["case"][:2])))
def test_recorded(rec):
    x, b = _operands(rec)
    assert LA._row64(x, b) == (b.shape[1] >= 2)
    out = (Tensor(x) @ Tensor(b)).numpy()
    assert out.dtype == np.float64 and out.shape == (1, b.shape[1])
    if b.shape[1] >= 2:
        assert _sha(out) == rec["sha"]
        assert _sha((Tensor(x[0]) @ Tensor(b)).numpy()[None]) == rec["sha"]  # a vector too


def test_the_records_tell_the_orders_apart():
    # NumPy's order (what gradcli used) misses most records, as do lanes of the chain summed
    # apart; one element 1 ulp off changes a digest
    chained = [r for r in CASES if r["case"][1] >= 2 and r["case"][0] >= 8]
    numpy_missed = sum(_sha(np.matmul(*_operands(r))) != r["sha"] for r in chained)
    assert numpy_missed >= len(chained) - 2
    for rec in chained:
        x, b = _operands(rec)
        halves = LA._fma64_chain(x[:, ::2], b[::2]) + LA._fma64_chain(x[:, 1::2], b[1::2])
        assert _sha(halves) != rec["sha"]
        out = LA._fma64_chain(x, b)
        assert _sha(out) == rec["sha"]
        out[0, 0] = np.nextafter(out[0, 0], np.inf)
        assert _sha(out) != rec["sha"]


def test_other_layouts_keep_their_path():
    # x @ w.t() (a column-major second operand) is another kernel of MKL's: not this chain
    x, w = _draw((1, 50), 1), _draw((7, 50), 2)
    assert not LA._row64(x, w.T)
    assert not LA._row64(x.astype(np.float32), w.T.copy().astype(np.float32))
    assert not LA._row64(_draw((2, 50), 3), w.T.copy())  # two rows: the blocked kernels
    assert not LA._row64(x[:, ::2], _draw((25, 7), 4))  # a row whose elements are apart
    big = np.ones((LA._FMA64_MAX_K + 1, 2))
    assert not LA._row64(np.ones((1, LA._FMA64_MAX_K + 1)), big)  # past the bound: NumPy's
