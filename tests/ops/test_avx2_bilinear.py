"""On the avx2 kernel family, float32 F.bilinear is PyTorch's to the bit, value and gradients:
ATen's `_trilinear` (one batched product pair per output feature, added to zeros) and its
backward (three more `_trilinear` calls), against results recorded with torch 2.13 on AVX2
(tests/ops/data/record_avx2_bilinear.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import cpu

CASES = json.loads((Path(__file__).parent / "data" / "avx2_bilinear.json").read_text())


def _draw(shape: list[int], seed: int) -> np.ndarray:
    return np.random.default_rng([*shape, seed]).standard_normal(shape).astype(np.float32)


def _run(case: dict) -> dict[str, list[int]]:
    import gradcli
    from gradcli.surface import nn

    lead, (i, j, o), seed = case["lead"], case["sizes"], case["seed"]
    x = gradcli.Tensor(_draw([*lead, i], seed), requires_grad=True)
    z = gradcli.Tensor(_draw([*lead, j], seed + 10), requires_grad=True)
    w = gradcli.Tensor(_draw([o, i, j], seed + 20), requires_grad=True)
    b = gradcli.Tensor(_draw([o], seed + 30), requires_grad=True)
    y = nn.bilinear(x, z, w, b)
    y.backward(gradcli.Tensor(_draw(list(y.shape), seed + 40)))
    got = {"y": y, "dx": x.grad, "dz": z.grad, "dw": w.grad, "db": b.grad}
    return {
        k: np.asarray(v.data, np.float32).reshape(-1).view(np.uint32).tolist()
        for k, v in got.items()
    }


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['lead']}-{c['sizes']}")
def test_bilinear_is_pytorchs_on_avx2(case: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")
    got = _run(case)
    for key, want in got.items():
        assert want == case[key], key


def test_the_composition_it_replaced_misses(monkeypatch: pytest.MonkeyPatch) -> None:
    """x @ W[k] then a product with z summed (the composition gradcli used before, a broadcast
    matmul and a sum) misses the recorded values: the test above can fail."""
    monkeypatch.setenv(cpu.ENV, "avx2")
    misses = 0
    for case in CASES:
        lead, (i, j, o), seed = case["lead"], case["sizes"], case["seed"]
        x, z = _draw([*lead, i], seed), _draw([*lead, j], seed + 10)
        w, b = _draw([o, i, j], seed + 20), _draw([o], seed + 30)
        t = np.matmul(x[..., None, None, :], w)  # (..., o, 1, j)
        y = (t[..., 0, :] * z[..., None, :]).sum(-1) + b
        misses += sum(a != c for a, c in zip(y.reshape(-1).view(np.uint32).tolist(), case["y"]))
    assert misses > 20
