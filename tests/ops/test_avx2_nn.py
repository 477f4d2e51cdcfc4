"""On the avx2 kernel family (gradcli.core.cpu: PyTorch on an AVX2 processor without AVX-512,
measured on AMD EPYC), float32 softmax, log_softmax and cross_entropy (8-lane vector
reductions, `gradcli.ops.softmax32`) and float32 / float64 prod (`reduction._prod_avx2`) are
PyTorch's to the bit, forward and backward. Recorded there with torch 2.13
(tests/ops/data/record_avx2_nn.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import cpu
from gradcli.core.tensor import Tensor
from gradcli.surface import functional as F
from gradcli.surface import (
    losses,
    names,  # noqa: F401 - installs the tensor methods
)

CASES = json.loads((Path(__file__).parent / "data" / "avx2_nn.json").read_text())


def _draw(shape, seed, scale=1.0, dtype="float32", positive=False) -> np.ndarray:
    rng = np.random.default_rng([*shape, seed])
    if positive:
        v = np.asarray(rng.uniform(0.55, 1.6, shape) * rng.choice([-1.0, 1.0], shape))
    else:
        v = np.asarray(rng.standard_normal(shape) * scale)
    return v.astype(dtype)


def _hex(a) -> str:
    return np.ascontiguousarray(np.asarray(a)).tobytes().hex()


def _gradcli(case: dict) -> tuple[np.ndarray, np.ndarray]:
    shape, dim, op = case["shape"], case["dim"], case["op"]
    if op in ("softmax", "log_softmax"):
        x = Tensor(_draw(shape, 0, case["scale"]), requires_grad=True)
        y = getattr(F, op)(x, dim)
        y.backward(Tensor(_draw(shape, 5)))
    elif op == "cross_entropy":
        n, c = shape
        x = Tensor(_draw(shape, 1, 3.0), requires_grad=True)
        t = np.random.default_rng([n, c, 1]).integers(0, c, n)
        y = losses.cross_entropy(x, Tensor(t))
        y.backward()
    else:
        x = Tensor(_draw(shape, 2, dtype=case["dtype"], positive=True), requires_grad=True)
        y = x.prod() if dim is None else x.prod(dim)
        y.backward(Tensor(_draw(list(y.shape), 6, dtype=case["dtype"])))
    return y.data, x.grad.data


def _id(c: dict) -> str:
    return f"{c['op']}-{c['dtype']}-{c['shape']}-{c['dim']}-{c['scale']}"


def _count_off(a: np.ndarray, want: str) -> int:
    """How many elements of `a` differ from the recorded bits."""
    a = np.ascontiguousarray(np.asarray(a)).reshape(-1)
    b = np.frombuffer(bytes.fromhex(want), a.dtype)
    return int(np.sum(a.view(f"u{a.itemsize}") != b.view(f"u{a.itemsize}")))


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_pytorchs_bits_on_avx2(case: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")
    out, grad = _gradcli(case)
    assert out.dtype == np.dtype(case["dtype"]) and grad.dtype == out.dtype
    assert _hex(out) == case["out"]
    assert _hex(grad) == case["grad"]


@pytest.mark.parametrize("op", ["softmax", "log_softmax", "prod"])
def test_the_data_tells_the_families_apart(op: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The AVX-512 family's 16 lanes (softmax) and NumPy's product (prod) miss the recorded
    bits: the recordings can tell a model that is one ulp off in one lane."""
    monkeypatch.setenv(cpu.ENV, "avx512")
    off = 0
    for case in CASES:
        if case["op"] == op:
            out, grad = _gradcli(case)
            off += _count_off(out, case["out"]) + _count_off(grad, case["grad"])
    assert off > 20, off


def test_one_ulp_off_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")
    case = next(c for c in CASES if c["op"] == "softmax" and c["shape"] == [3, 17])
    out, _ = _gradcli(case)
    nudged = out.copy().reshape(-1)
    nudged[5] = np.nextafter(nudged[5], np.float32(1))
    assert _hex(out) == case["out"] and _hex(nudged) != case["out"]


@pytest.mark.skipif(cpu._detected() != "avx2", reason="torch's bits here are the avx2 family's")
def test_live_against_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    monkeypatch.setenv(cpu.ENV, "avx2")
    rng = np.random.default_rng()
    for k in range(20):
        shape = (int(rng.integers(1, 12)), int(rng.integers(1, 90)))
        x = (rng.standard_normal(shape) * rng.choice([0.3, 3.0, 20.0])).astype(np.float32)
        g = rng.standard_normal(shape).astype(np.float32)
        dim = int(rng.integers(0, 2))
        for op in ("softmax", "log_softmax"):
            tx = torch.from_numpy(x).requires_grad_()
            ty = getattr(torch, op)(tx, dim)
            ty.backward(torch.from_numpy(g))
            gx = Tensor(x, requires_grad=True)
            gy = getattr(F, op)(gx, dim)
            gy.backward(Tensor(g))
            assert _hex(gy.data) == _hex(ty.detach().numpy()), (k, op, shape, dim)
            assert _hex(gx.grad.data) == _hex(tx.grad.numpy()), (k, op, shape, dim)
        p = (rng.uniform(0.6, 1.5, shape) * rng.choice([-1, 1], shape)).astype(np.float32)
        for d in (None, 0, 1):
            want = torch.from_numpy(p).prod() if d is None else torch.from_numpy(p).prod(d)
            got = Tensor(p).prod() if d is None else Tensor(p).prod(d)
            assert _hex(got.data) == _hex(want.numpy()), (k, shape, d)
