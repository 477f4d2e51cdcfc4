"""float32 sin, cos, log1p, expm1, sinh, cosh, atanh, exp2, asinh, acosh are PyTorch's to the
bit, forward and first-order backward: sin and cos as MKL's VML computes them
(`gradcli.core.mkl32`, a measured model), the others as SLEEF's vector functions on whole steps
of 32 elements and the C library's on the tail (`gradcli.core.sleef32`). Recorded with torch
2.13 (tests/ops/data/record_vml32.py); a live cross-check on 10**6 inputs runs where torch is
installed."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

import gradcli
from gradcli.core import mkl32, sleef32
from gradcli.surface import names  # noqa: F401 - installs the tensor methods

DATA = json.loads((Path(__file__).parent / "data" / "vml32_results.json").read_text())
ROUNDED = {"sin": np.sin, "cos": np.cos, "log1p": np.log1p, "expm1": np.expm1}
ROUNDED |= {"sinh": np.sinh, "cosh": np.cosh, "atanh": np.arctanh, "exp2": np.exp2}
ROUNDED |= {"asinh": np.arcsinh, "acosh": np.arccosh}


def _draw(op: str, shape: list[int], seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The recording's inputs (tests/ops/data/record_vml32.py `draw`)."""
    rng = np.random.default_rng([*shape, seed, len(op)])
    n = int(np.prod(shape))
    z = rng.standard_normal(n) * rng.choice([0.5, 3.0, 12.0], n)
    far = rng.random(n) < 0.05
    if op in ("sin", "cos"):
        x = np.where(far, rng.uniform(-10000, 10000, n), z)
    elif op in ("sinh", "cosh", "expm1"):
        x = np.where(far, rng.uniform(-95, 95, n), z)
    elif op == "exp2":
        x = np.where(far, rng.uniform(-160, 140, n), z * 4)
    elif op == "log1p":
        x = np.where(far, rng.uniform(-1, 1e6, n), np.abs(z) - 0.9)
    elif op == "atanh":
        x = np.tanh(z / 3)
    elif op == "acosh":
        x = 1 + np.abs(z)
    else:  # asinh
        x = np.where(far, rng.uniform(-1e5, 1e5, n), z)
    g = rng.standard_normal(n)
    return x.astype(np.float32).reshape(shape), g.astype(np.float32).reshape(shape)


def _bits(a: np.ndarray) -> list[int]:
    return [int(b) for b in np.asarray(a, dtype=np.float32).reshape(-1).view(np.uint32)]


def _run(op: str, x: np.ndarray, g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    leaf = gradcli.Tensor(x, requires_grad=True)
    y = getattr(leaf, op)()
    y.backward(gradcli.Tensor(g))
    return y.numpy(), leaf.grad.numpy()


@pytest.mark.parametrize(
    "case", DATA["cases"], ids=[f"{c['op']}-{c['shape']}" for c in DATA["cases"]]
)
def test_pytorchs_to_the_bit(case: dict) -> None:
    x, g = _draw(case["op"], case["shape"], 0)
    y, gx = _run(case["op"], x, g)
    assert _bits(y) == case["y"]
    assert _bits(gx) == case["grad"]


# cos's model leaves a few of 10**6 results an ulp off PyTorch's (core.mkl32): blocks of 4096
# allowed to differ; every other function is exact.
RESIDUAL_BLOCKS = {"cos": 3}


@pytest.mark.parametrize("big", DATA["big"], ids=[b["op"] for b in DATA["big"]])
def test_a_million_inputs(big: dict) -> None:
    """10**6 + 13 inputs: each block's digest is PyTorch's, and the recorded results are not
    the float64 ones rounded once (for thousands of elements), so a rounded kernel fails."""
    x, _ = _draw(big["op"], [big["n"]], 1)
    y = getattr(gradcli.Tensor(x), big["op"])().numpy()
    block = big["block"]
    got = [
        hashlib.sha256(y[i : i + block].view(np.uint32).tobytes()).hexdigest()[:16]
        for i in range(0, big["n"], block)
    ]
    differ = sum(a != b for a, b in zip(got, big["blocks"], strict=True))
    assert differ <= RESIDUAL_BLOCKS.get(big["op"], 0)
    assert big["differ_from_rounded"] > 500


def test_the_small_cases_tell_the_kernels_from_rounding() -> None:
    for op in {c["op"] for c in DATA["cases"]}:
        differ = 0
        for c in (c for c in DATA["cases"] if c["op"] == op):
            x = _draw(op, c["shape"], 0)[0]
            with np.errstate(all="ignore"):
                differ += _bits(ROUNDED[op](x.astype(np.float64))) != c["y"]
        assert differ > 0, op


def test_sin_cos_signs_and_specials() -> None:
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-30, 1e4, -1e4, 3e4], np.float32)
    s, c = mkl32.sinf(x), mkl32.cosf(x)
    assert np.signbit(s[1]) and not np.signbit(s[0]) and s[5] == x[5] and s[6] == x[6]
    assert np.isnan(s[2:5]).all() and np.isnan(c[2:5]).all()
    assert c[0] == 1 and c[1] == 1
    with np.errstate(all="ignore"):
        assert s[9] == np.float32(np.sin(np.float64(x[9])))  # past 10000: rounded from float64


def test_float64_unchanged() -> None:
    # (float64 sinh, expm1 and exp2 are SLEEF's double functions: tests/ops/test_sleef64.py)
    x = np.linspace(-3, 3, 1001)
    for op in ("sin", "cos"):
        got = getattr(gradcli.Tensor(x), op)().numpy()
        assert np.array_equal(got, ROUNDED[op](x)), op


def test_live_against_torch() -> None:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    for n in (3001, 20017):
        for op in ROUNDED:
            if n > sleef32.LIBM_CALLS and op in ("asinh", "acosh"):
                continue  # calls to the C library one by one: only for small tensors
            x, g = _draw(op, [n], 7)
            leaf = torch.tensor(x, requires_grad=True)
            y = getattr(torch, op)(leaf)
            y.backward(torch.tensor(g))
            gy, ggx = _run(op, x, g)
            assert _bits(gy) == _bits(y.detach().numpy()), op
            assert _bits(ggx) == _bits(leaf.grad.numpy()), op
    rng = np.random.default_rng(11)
    x = rng.standard_normal(10**6).astype(np.float32)
    for op in ("sin", "cos", "sinh", "cosh", "expm1", "exp2"):
        want = getattr(torch, op)(torch.tensor(x)).numpy().view(np.uint32)
        got = getattr(gradcli.Tensor(x), op)().numpy().view(np.uint32)
        assert np.count_nonzero(got != want) <= RESIDUAL_BLOCKS.get(op, 0), op
