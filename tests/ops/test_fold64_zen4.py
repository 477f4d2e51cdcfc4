"""A float64 batch of matrices times one matrix is folded into the rows of one product, as
PyTorch's matmul folds it (`linalg._matmul_fwd`), so on the zen4 family it takes MKL's dgemm
kernels' order there: PyTorch 2.13's bits on seeded shapes recorded on AMD Zen 4
(tests/ops/data/record_fold64_zen4.py); the batched order differed from the fifth row of a
(2, 5, 8) @ (8, 24)."""

import hashlib
import json
from pathlib import Path

import numpy as np

from gradcli.core import cpu
from gradcli.ops.linalg import _matmul_fwd

_DATA = json.loads((Path(__file__).parent / "data" / "fold64_zen4.json").read_text())


def _draw(shape, seed):
    return np.random.default_rng([*shape, seed]).standard_normal(shape)


def _digest(a):
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]


def test_folded_products_are_pytorchs_on_zen4(monkeypatch):
    monkeypatch.setenv(cpu.ENV, "zen4")
    wrong = []
    for xs, ws, want_t, want_c in _DATA["zen4"]:
        x, w = _draw(tuple(xs), 1), _draw(tuple(ws), 2)
        if _digest(_matmul_fwd(x, w.T)) != want_t:
            wrong.append((xs, ws, "w.t()"))
        if _digest(_matmul_fwd(x, np.ascontiguousarray(w.T))) != want_c:
            wrong.append((xs, ws, "contiguous"))
    assert not wrong
