"""float32 softmax, log_softmax, nll_loss and cross_entropy are PyTorch's to the bit: ATen's
kernels' order (16-lane vector reductions folded as a butterfly, columns of another dimension
reduced in order), SLEEF's vector expf / logf, glibc's expf in the scalar column loop, and
nll_loss's cascade sum over the batch (`gradcli.ops.softmax32`). Recorded with torch 2.13
(tests/ops/data/record_softmax.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import cpu
from gradcli.core.tensor import Tensor
from gradcli.ops.loss import _nll_fwd
from gradcli.ops.reduction import _log_softmax_fwd, _softmax_fwd
from gradcli.ops.softmax32 import _glibc_expf, _sleef_expf, _sleef_logf
from gradcli.surface import functional as F
from gradcli.surface import (
    losses,
    names,  # noqa: F401 - installs the tensor methods
)

CASES = json.loads((Path(__file__).parent / "data" / "softmax_results.json").read_text())


def _draw(shape: list[int], seed: int, scale: float) -> np.ndarray:
    rng = np.random.default_rng([*shape, seed])
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def _targets(n: int, c: int, seed: int, ignore: bool) -> np.ndarray:
    rng = np.random.default_rng([n, c, seed, 1])
    t = rng.integers(0, c, n)
    if ignore:
        t[rng.random(n) < 0.25] = -100
    return t


def _weights(c: int, seed: int) -> np.ndarray:
    return np.random.default_rng([c, seed, 2]).uniform(0.1, 2.0, c).astype(np.float32)


def _bits(a: np.ndarray) -> list[int]:
    return [int(b) for b in np.asarray(a, dtype=np.float32).reshape(-1).view(np.uint32)]


def _rounded_exp(x: np.ndarray) -> np.ndarray:
    return np.exp(x.astype(np.float64)).astype(np.float32)


def _naive(case: dict) -> np.ndarray:
    """What gradcli computed before: exp and log rounded from float64, NumPy's sums."""
    if case["op"] in ("softmax", "log_softmax"):
        x, dim = _draw(case["shape"], 0, case["scale"]), case["dim"]
        d = x - x.max(axis=dim, keepdims=True)
        e = _rounded_exp(d)
        s = np.sum(e, axis=dim, keepdims=True)
        if case["op"] == "softmax":
            return e * (np.float32(1) / s)
        return d - np.log(s.astype(np.float64)).astype(np.float32)
    x, t, w = _loss_inputs(case)
    if case["op"] == "cross_entropy":
        x = _log_softmax_from(case)
    keep = t != -100
    wt = np.ones(len(t), np.float32) if w is None else w[np.where(keep, t, 0)]
    picked = np.where(keep, -x[np.arange(len(t)), np.where(keep, t, 0)] * wt, np.float32(0))
    if case["reduction"] == "none":
        return picked
    if case["reduction"] == "sum":
        return np.sum(picked)
    return np.sum(picked) / np.sum(wt * keep)


def _log_softmax_from(case: dict) -> np.ndarray:
    x = _draw(case["shape"], 1, 3.0)
    d = x - x.max(axis=1, keepdims=True)
    return d - np.log(np.sum(_rounded_exp(d), axis=1, keepdims=True).astype(np.float64)).astype(
        np.float32
    )


def _loss_inputs(case: dict) -> tuple:
    n, c = case["shape"]
    w = _weights(c, 0) if case["weighted"] else None
    return _draw([n, c], 1, 3.0), _targets(n, c, 0, case["ignore"]), w


def _gradcli(case: dict) -> np.ndarray:
    if case["op"] in ("softmax", "log_softmax"):
        fwd = _softmax_fwd if case["op"] == "softmax" else _log_softmax_fwd
        return fwd(_draw(case["shape"], 0, case["scale"]), case["dim"])
    x, t, w = _loss_inputs(case)
    if case["op"] == "cross_entropy":
        x = _log_softmax_fwd(x, 1)
    return _nll_fwd(x, t, w, case["reduction"])


def _id(c: dict) -> str:
    if c["op"] in ("softmax", "log_softmax"):
        return f"{c['op']}-{c['shape']}-{c['scale']}-{c['dim']}"
    return f"{c['op']}-{c['shape']}-{c['ignore']}-{c['weighted']}-{c['reduction']}"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_pytorchs_to_the_bit(case: dict) -> None:
    got = _gradcli(case)
    assert np.asarray(got).dtype == np.float32
    assert _bits(got) == case["bits"]


GRAD_CASES = [c for c in CASES if c.get("grad") is not None]


@pytest.mark.parametrize("case", GRAD_CASES, ids=_id)
def test_gradients_are_pytorchs_to_the_bit(case: dict) -> None:
    """The backward pass through the engine (no graph built): softmax's and log_softmax's
    gradients as ATen's backward kernels compute them, nll_loss's mean gradient."""
    if case["op"] in ("softmax", "log_softmax"):
        x = Tensor(_draw(case["shape"], 0, case["scale"]), requires_grad=True)
        y = getattr(F, case["op"])(x, case["dim"])
        y.backward(Tensor(_draw(case["shape"], 5, 1.0)))
    else:
        xa, t, w = _loss_inputs(case)
        x = Tensor(xa, requires_grad=True)
        fn = losses.nll_loss if case["op"] == "nll_loss" else losses.cross_entropy
        weight = None if w is None else Tensor(w)
        fn(x, Tensor(t), weight=weight, reduction=case["reduction"]).backward()
    assert x.grad.data.dtype == np.float32
    assert _bits(x.grad.data) == case["grad"]


@pytest.mark.parametrize("op", ["softmax", "log_softmax", "nll_loss", "cross_entropy"])
def test_the_recorded_results_tell_the_rules_apart(op: str) -> None:
    misses = 0
    for case in CASES:
        if case["op"] == op:
            misses += sum(a != b for a, b in zip(_bits(_naive(case)), case["bits"]))
    assert misses > 3, f"the {op} data cannot tell the naive rule from PyTorch's"


def test_the_scalar_exp_is_not_the_vector_one() -> None:
    """The column loop's glibc expf and the vector SLEEF expf differ (both are needed), and
    neither is the correctly rounded exp."""
    x = -np.random.default_rng(3).uniform(0, 20, 100_000).astype(np.float32)
    cr = _rounded_exp(x)
    assert (_sleef_expf(x) != cr).sum() > 100
    assert 0 < (_glibc_expf(x) != cr).sum() < (_sleef_expf(x) != cr).sum()
    s = np.float32(1) + np.random.default_rng(4).random(100_000).astype(np.float32) * 50
    assert (_sleef_logf(s) != np.log(s.astype(np.float64)).astype(np.float32)).sum() > 10


def test_special_values() -> None:
    x = np.array([0.0, -1e-30, -50.0, -87.5, -103.0, -104.5, -np.inf, np.nan], np.float32)
    assert _sleef_expf(x)[0] == 1 and _glibc_expf(x)[0] == 1
    for f in (_sleef_expf, _glibc_expf):
        r = f(x)
        assert r[-2] == 0 and np.isnan(r[-1]) and r[5] == 0 and 0 < r[3] < 1e-37
    lg = _sleef_logf(np.array([1.0, 0.0, -1.0, np.inf, 2.0, 1e-38], np.float32))
    assert lg[0] == 0 and lg[1] == -np.inf and np.isnan(lg[2]) and lg[3] == np.inf
    assert abs(lg[4] - np.log(2)) < 1e-7 and abs(lg[5] - np.log(1e-38)) < 1e-4


@pytest.mark.skipif(cpu._detected() != "avx512", reason="torch's bits here are another family's")
def test_live_against_torch() -> None:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    F = torch.nn.functional
    rng = np.random.default_rng(11)
    for k in range(60):
        shape = (int(rng.integers(1, 40)), int(rng.integers(1, 200)))
        x = (rng.standard_normal(shape) * rng.choice([0.3, 3.0, 20.0])).astype(np.float32)
        tx = torch.from_numpy(x)
        for dim in (0, 1):
            assert _bits(_softmax_fwd(x, dim)) == _bits(tx.softmax(dim)), (k, dim)
            assert _bits(_log_softmax_fwd(x, dim)) == _bits(tx.log_softmax(dim)), (k, dim)
        t = rng.integers(0, shape[1], shape[0])
        want = F.cross_entropy(tx, torch.from_numpy(t))
        assert _bits(_nll_fwd(_log_softmax_fwd(x, 1), t)) == _bits(want), k
