"""float16 and bfloat16 softmax follow ATen's two-byte kernels (`softmax32._softmax_reduced`:
the last dimension's scalar tail of glibc exps added after the folded vector sum, other
dimensions' columns 2 L at a time and a tail whose exps are rounded to the dtype first), and
softmax's gradient over the last dimension their two-accumulator `map2_reduce_all`
(`_dot_rows_reduced`); log_softmax is checked beside them. On the avx2 kernel family every value
and gradient is PyTorch 2.13's (recorded on AMD EPYC: tests/ops/data/record_reduced_softmax.py,
compared by sha256)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import cpu, dtypes
from gradcli.core.tensor import Tensor
from gradcli.ops import softmax32
from gradcli.surface import functional as F

DATA = Path(__file__).resolve().parent / "data"
CASES = json.loads((DATA / "reduced_softmax.json").read_text())["cases"]


def _draw(shape: tuple, seed: int, scale: float) -> np.ndarray:
    # (the recorder's draw)
    return np.random.default_rng([*shape, seed]).standard_normal(shape) * scale


def _as(dtype: str, a: np.ndarray) -> np.ndarray:
    return a.astype(np.float16) if dtype == "float16" else dtypes.round_bf16(a.astype(np.float32))


def _sha(a: np.ndarray) -> str:
    return hashlib.sha256(np.asarray(a, np.float32).tobytes()).hexdigest()


def _run(case: dict) -> tuple[str, str]:
    shape, dim = tuple(case["shape"]), case["dim"]
    x = Tensor(_as(case["dtype"], _draw(shape, 1, case["scale"])), requires_grad=True)
    y = F.log_softmax(x, dim) if case["log"] else F.softmax(x, dim)
    y.backward(Tensor(_as(case["dtype"], _draw(shape, 2, 1.0))))
    assert y.dtype == x.dtype == x.grad.dtype
    return _sha(y.data), _sha(x.grad.data)


@pytest.fixture(autouse=True)
def _avx2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")


def _id(c: dict) -> str:
    kind = "log_softmax" if c["log"] else "softmax"
    return f"{c['dtype']}-{kind}-{'x'.join(map(str, c['shape']))}-dim{c['dim']}-{c['scale']}"


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_values_and_gradients_are_pytorchs_on_avx2(case: dict) -> None:
    assert _run(case) == (case["y"], case["gx"])


def test_the_float32_kernels_rounded_once_would_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    # the rule before: the float32 kernels on widened values, rounded once
    monkeypatch.setattr(softmax32, "_softmax_reduced", _float32_rule)
    wrong = [c for c in CASES if not c["log"] and _run(c)[0] != c["y"]]
    assert len(wrong) >= 4


def _float32_rule(x: np.ndarray, dim: int) -> np.ndarray:
    from gradcli.core import vecloop

    was = vecloop.REDUCED[0]
    vecloop.REDUCED[0] = None
    try:
        return softmax32.softmax32(x, dim, log=False)
    finally:
        vecloop.REDUCED[0] = was
