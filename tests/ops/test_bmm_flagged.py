"""A float32 bmm of one-column (or one-row) matrices that ATen hands MKL as transposed
operands (`x @ w.t()` with w a batched row: vmap's batching rule gives bmm such columns) takes,
on the AMD families, MKL's small dot kernel for x's rows, not the row-major column's kernel.
PyTorch's bits recorded on a Zen 4 EPYC with torch 2.13 (tests/ops/data/record_bmm_flagged.py,
which draws the inputs)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import cpu
from gradcli.ops import linalg

DATA = Path(__file__).parent / "data"
_spec = importlib.util.spec_from_file_location("record_bmm_flagged", DATA / "record_bmm_flagged.py")
REC = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(REC)
CASES = json.loads((DATA / "bmm_flagged.json").read_text())["cases"]


def products(kind: str, route: str = "bmm") -> list[np.ndarray]:
    out = []
    for a, w in REC.inputs(kind):
        if kind in ("einsum", "einsum64"):
            spec = (((0, 1, 2), (0, 3, 2)), (0, 1, 3))  # 'bij,bkj->bik'
            out.append(linalg._einsum_fwd(a, w, spec=spec))
        elif kind == "rowmajor64":
            out.append(linalg._bmm_fwd(a, w.reshape(w.shape[0], -1, 1)))
        elif kind in ("column", "column64"):
            y = np.swapaxes(w, 1, 2)  # w.transpose(1, 2): steps (k, 1, k) floats
            if route == "contiguous":
                y = w.reshape(y.shape)  # the same values as row-major columns (steps k, 1, 1)
            out.append(linalg.aten_matmul(a, y) if route == "aten" else linalg._bmm_fwd(a, y))
        else:
            out.append(linalg._bmm_fwd(np.swapaxes(a, 1, 2), w))
    return out


@pytest.mark.parametrize(
    ("kind", "route"),
    [("column", "bmm"), ("column", "aten"), ("row", "bmm"), ("einsum", "bmm"), ("column64", "bmm")]
    + [("rowmajor64", "bmm"), ("einsum64", "bmm")],
)
def test_zen4_gives_torchs_bits(kind: str, route: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "zen4")
    assert REC.sha(products(kind, route)) == CASES[kind]


def test_the_layout_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same values as a row-major column take the other kernel: other bits there."""
    monkeypatch.setenv(cpu.ENV, "zen4")
    assert REC.sha(products("column", "contiguous")) != CASES["column"]


def test_one_ulp_off_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "zen4")
    got = products("column")
    got[1] = got[1].copy()
    got[1][0, 0, 0] = np.nextafter(got[1][0, 0, 0], np.float32(np.inf))
    assert REC.sha(got) != CASES["column"]
