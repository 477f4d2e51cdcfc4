"""float16 and bfloat16 matrix products are PyTorch's to the bit (`core.bf16.reduced_addmm`,
`reduced_bmm`, `reduced_addmv`): ATen's own gemm loop with its layout-dependent orders of the
float32 sums (four partial sums; the rank-one loop of a transposed first matrix; the 8-lane dot
kernel of a transposed second one), the input of addmm and addmv added inside the float32 sum
and rounded once, oneDNN's bfloat16 kernel past 16 ** 3 multiply-adds on the zen4 family.
Recorded with PyTorch 2.13 on an AMD EPYC Zen 4 (tests/ops/data/record_half_gemm.py), inputs
of wide magnitudes (tests/ops/half_gemm_inputs.py); the rules replaced (the bias added to the
rounded product; one float32 sum in order) are shown to miss the recordings."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

import gradcli
from gradcli.core import bf16, cpu
from gradcli.core.dtypes import round_bf16
from gradcli.surface import functional as F
from gradcli.surface import linalg as SL
from gradcli.surface import names  # noqa: F401 - installs the tensor methods
from tests.ops.half_gemm_inputs import draw

CASES = json.loads((Path(__file__).parent / "data" / "half_gemm.json").read_text())["cases"]


def _tensor(a: np.ndarray, dtype: str) -> gradcli.Tensor:
    """`a` rounded to the dtype, a transposed view where `a` is one (as recorded)."""
    rounded = (lambda v: v.astype(np.float16)) if dtype == "float16" else round_bf16
    if a.ndim == 2 and not a.flags.c_contiguous:
        return gradcli.Tensor(rounded(np.ascontiguousarray(a.T))).t()
    return gradcli.Tensor(rounded(a))


def _sha(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a.astype(np.float32)).tobytes()).hexdigest()


def _run(case: dict) -> str:
    t = {key: _tensor(v, case["dtype"]) for key, v in draw(case).items()}
    op = case["op"]
    if op == "mm":
        r = t["x"] @ t["y"]
    elif op == "addmm":
        r = SL.addmm(t["c"], t["x"], t["y"], beta=case["beta"], alpha=case["alpha"])
    elif op == "bmm":
        r = F.bmm(t["x"], t["y"])
    else:
        r = SL.addmv(t["c"], t["x"], t["y"])
    assert r.data.dtype == t["x"].data.dtype
    return _sha(np.asarray(r.data))


def test_pytorchs_bits_on_zen4(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "zen4")
    missed = [c["seed"] for c in CASES if _run(c) != c["out"]]
    assert missed == []


def test_float16_is_atens_own_loop_on_every_family(monkeypatch: pytest.MonkeyPatch) -> None:
    """float16 has no oneDNN road without AVX512-FP16: the same loop, the same bits, whatever
    the family gradcli follows (and bfloat16 within ATen's own loop's sizes)."""
    for family in ("avx512", "avx2"):
        monkeypatch.setenv(cpu.ENV, family)
        for c in CASES:
            m, k, n = c["mkn"]
            work = m * k * n * (2 if c["op"] == "bmm" else 1)
            if c["dtype"] == "float16" or (c["op"] != "addmv" and work <= 16**3):
                assert _run(c) == c["out"], (family, c["seed"])


def test_the_bias_added_to_the_rounded_product_misses(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rule replaced: addmm as the product rounded to the dtype, then the input added and
    rounded again (gradcli's torch.addmm before) misses recordings of both dtypes."""
    monkeypatch.setenv(cpu.ENV, "zen4")
    missed = {"float16": 0, "bfloat16": 0}
    for c in CASES:
        if c["op"] != "addmm" or c["alpha"] != 1 or c["beta"] != 1:
            continue
        t = {key: _tensor(v, c["dtype"]) for key, v in draw(c).items()}
        missed[c["dtype"]] += _sha(np.asarray(((t["x"] @ t["y"]) + t["c"]).data)) != c["out"]
    assert missed["float16"] >= 3 and missed["bfloat16"] >= 3, missed


def test_one_sum_in_order_misses(monkeypatch: pytest.MonkeyPatch) -> None:
    """The 8-lane dot kernel's order (a transposed second matrix: `x @ w.t()`, nn.Linear's)
    replaced by one float32 sum in order misses float16 recordings."""
    monkeypatch.setenv(cpu.ENV, "zen4")

    def in_order(product, m, n, k):  # noqa: ANN001, ANN202
        total = np.zeros((m, n), np.float32)
        for j in range(k):
            total = total + product(j)
        return total

    picked = [
        c
        for c in CASES
        if c["dtype"] == "float16"
        and c["op"] in ("mm", "addmm")
        and c["b_cols"]
        and not c["a_cols"]
    ]
    assert all(_run(c) == c["out"] for c in picked)
    monkeypatch.setattr(bf16, "_dot8_blocks", in_order)
    assert sum(_run(c) != c["out"] for c in picked) >= 1
