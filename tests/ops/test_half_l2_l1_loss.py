"""float16 smooth_l1_loss, huber_loss and soft_margin_loss are PyTorch's to the bit on the avx2
kernel family, values and input gradients (recorded with torch 2.13 on AVX2:
record_half_l2_l1_loss.py): smooth_l1's backward is the float32 kernel's arithmetic on the
values as floats, rounded once; huber's forward in float, rounded once; huber's backward op by
op in half, its vector loop 32 elements a step and its scalar tail its own order; soft_margin's
backward op by op in half; a mean is the float sum divided by the count in float, rounded
once."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import cpu

CASES = json.loads((Path(__file__).parent / "data" / "half_l2_l1_loss.json").read_text())


def _draw(n: int, seed: int, scale: float) -> np.ndarray:
    return (np.random.default_rng([n, seed]).standard_normal(n) * scale).astype(np.float16)


def _run(case: dict) -> tuple[list[int], list[int]]:
    import gradcli
    from gradcli.surface import nnlosses

    n, seed = case["n"], case["seed"]
    x = gradcli.Tensor(_draw(n, seed, 2.0), requires_grad=True)
    t = _draw(n, seed + 100, 1.0)
    kw = {"beta": case["p"]} if case["name"] == "smooth_l1_loss" else {"delta": case["p"]}
    if case["name"] == "soft_margin_loss":
        t, kw = np.where(t > 0, 1.0, -1.0).astype(np.float16), {}
    t = gradcli.Tensor(t)
    y = getattr(nnlosses, case["name"])(x, t, reduction=case["reduction"], **kw)
    none = case["reduction"] == "none"
    y.backward(gradcli.Tensor(_draw(n, seed + 200, 1.0)) if none else None)
    assert y.dtype == x.grad.dtype == np.float16
    return (
        np.asarray(y.data).reshape(-1).view(np.uint16).tolist(),
        x.grad.data.view(np.uint16).tolist(),
    )


def _id(c: dict) -> str:
    return f"{c['name']}-{c['reduction']}-n{c['n']}-p{c['p']}"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_half_losses_are_pytorchs_on_avx2(case: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")
    y, dx = _run(case)
    assert y == case["y"]
    assert dx == case["dx"]


def test_the_recorded_bits_tell_near_rules_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """One rounding off fails: the half kernels' vector step taken as the float one (16), or
    every element on the vector rule (AVX-512's step of 64 on these sizes)."""
    from gradcli.core import vecloop

    def misses() -> int:
        return sum(
            (a != b)
            for c in CASES
            for a, b in zip(_run(c)[1], c["dx"])
            if c["name"] == "huber_loss"
        )

    monkeypatch.setenv(cpu.ENV, "avx2")
    assert misses() == 0
    # (the two rules differ only past delta, where the order of norm, g and delta matters)
    monkeypatch.setattr(vecloop, "vector_count", lambda n, per=1: n - n % 16)
    assert misses() >= 1
    monkeypatch.setattr(vecloop, "vector_count", lambda n, per=1: n)
    assert misses() >= 1


def test_smooth_l1_op_by_op_in_half_misses() -> None:
    """smooth_l1's backward op by op in half (what gradcli composed before) misses many
    recorded gradients: the float rule is needed."""
    h = np.float16
    misses = 0
    for c in CASES:
        if c["name"] != "smooth_l1_loss":
            continue
        n, seed, p = c["n"], c["seed"], c["p"]
        x, t = _draw(n, seed, 2.0), _draw(n, seed + 100, 1.0)
        g = _draw(n, seed + 200, 1.0) if c["reduction"] == "none" else np.ones(n, h)
        norm = h(1 / n) if c["reduction"] == "mean" else h(1)
        d = x - t
        inner = np.where(np.abs(d) >= h(p), np.sign(d).astype(h), d / h(p))
        dx = (norm * inner) * g
        misses += sum(a != b for a, b in zip(dx.view(np.uint16).tolist(), c["dx"]))
    assert misses > 10
