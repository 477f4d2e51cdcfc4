"""float32 logsumexp in ATen's order (max, exp of the shifted values, sum, log, plus the max),
against PyTorch 2.13's recorded bits (tests/ops/data/record_logsumexp.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import gradcli

DATA = json.loads((Path(__file__).parent / "data" / "logsumexp32.json").read_text())
CASES = DATA["cases"]


def _input(case: dict) -> np.ndarray:
    shape = case["shape"]
    rng = np.random.default_rng([*shape, case["seed"], 7])
    return rng.standard_normal(shape).astype(np.float32) * np.float32(4)


def _bits(a: np.ndarray) -> np.ndarray:
    return np.asarray(a, dtype=np.float32).reshape(-1).view(np.uint32)


def _gradcli(x: np.ndarray, dim: int) -> np.ndarray:
    return gradcli.Tensor(x).logsumexp(dim).numpy()


def _exp_agrees(x: np.ndarray, case: dict) -> bool:
    m = x.max(axis=case["dim"], keepdims=True)
    shifted = gradcli.Tensor(x - m).exp().numpy()
    return bool((_bits(shifted) == np.array(case["exp_bits"], dtype=np.uint32)).all())


def test_pytorchs_bits_wherever_the_exponentials_are() -> None:
    """gradcli's float32 exp gives PyTorch's bits for the shifted values (MKL's, reproduced in
    core.mkl32) and logsumexp is PyTorch's to the bit, every result."""
    exact = total = checked = 0
    for case in CASES:
        x = _input(case)
        got = _bits(_gradcli(x, case["dim"]))
        want = np.array(case["bits"], dtype=np.uint32)
        assert _gradcli(x, case["dim"]).dtype == np.float32
        if _exp_agrees(x, case):
            assert (got == want).all(), (case["shape"], case["seed"], case["dim"])
            checked += 1
        exact += int((got == want).sum())
        total += want.size
    assert checked == len(CASES)
    assert exact == total, f"{exact}/{total}"


def test_the_data_tells_the_float64_rule_apart() -> None:
    """The rule this replaced (exp, sum and log in float64, rounded once) must miss here."""
    misses = 0
    for case in CASES:
        x = _input(case).astype(np.float64)
        m = x.max(axis=case["dim"], keepdims=True)
        r = (np.log(np.exp(x - m).sum(axis=case["dim"], keepdims=True)) + m).squeeze(case["dim"])
        misses += int((_bits(r.astype(np.float32)) != np.array(case["bits"])).sum())
    assert misses > 10


@pytest.mark.parametrize("dim", [0, 1])
def test_live_against_torch(dim: int) -> None:
    torch = pytest.importorskip("torch")
    x = np.random.default_rng(11).standard_normal((37, 29)).astype(np.float32) * 5
    want = torch.logsumexp(torch.from_numpy(x), dim).numpy()
    got = _gradcli(x, dim)
    assert (got == want).mean() > 0.9
