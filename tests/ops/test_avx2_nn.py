"""On the avx2 kernel family (gradcli.core.cpu: PyTorch on an AVX2 processor without AVX-512,
measured on AMD EPYC), float32 softmax, log_softmax and cross_entropy (8-lane vector
reductions, `gradcli.ops.softmax32`) and float32 / float64 prod (`reduction._prod_avx2`) are
PyTorch's to the bit, forward and backward. Recorded there with torch 2.13
(tests/ops/data/record_avx2_nn.py)."""

from __future__ import annotations

import hashlib
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
from gradcli.surface import nnfunctional as NF

CASES = json.loads((Path(__file__).parent / "data" / "avx2_nn.json").read_text())


def _draw(shape, seed, scale=1.0, dtype="float32", positive=False) -> np.ndarray:
    rng = np.random.default_rng([*shape, seed])
    if positive:
        v = np.asarray(rng.uniform(0.55, 1.6, shape) * rng.choice([-1.0, 1.0], shape))
    else:
        v = np.asarray(rng.standard_normal(shape) * scale)
    return v.astype(dtype)


def _hex(a) -> str:
    return hashlib.sha256(np.ascontiguousarray(np.asarray(a)).tobytes()).hexdigest()


def _gradcli(case: dict) -> tuple[np.ndarray, ...]:
    shape, dim, op = case["shape"], case["dim"], case["op"]
    if op == "conv":
        stride, pad, bias = dim
        x = Tensor(_draw(shape, 3), requires_grad=True)
        w = Tensor(_draw(case["wshape"], 4), requires_grad=True)
        b = Tensor(_draw(case["wshape"][:1], 7)) if bias else None
        conv = NF.conv1d if len(shape) == 3 else NF.conv2d
        y = conv(x, w, b, stride=stride, padding=pad)
        y.backward(Tensor(_draw(list(y.shape), 8)))
        return y.data, x.grad.data, w.grad.data
    if op == "conv_transpose":
        pad, bias = dim
        x, w = Tensor(_draw(shape, 15)), Tensor(_draw(case["wshape"], 16))
        b = Tensor(_draw(case["wshape"][1:2], 17)) if bias else None
        deconv = NF.conv_transpose1d if len(shape) == 3 else NF.conv_transpose2d
        return (deconv(x, w, b, padding=pad).data,)
    if op == "avg_pool":
        k, st, pd, cip = dim
        x = Tensor(_draw(shape, 11), requires_grad=True)
        pool = NF.avg_pool1d if len(shape) == 3 else NF.avg_pool2d
        y = pool(x, k, st, pd, count_include_pad=cip)
        y.backward(Tensor(_draw(list(y.shape), 12)))
        return y.data, x.grad.data
    if op == "prod_view":
        base = Tensor(_draw(shape, 13, positive=True), requires_grad=True)
        x = {"slice": lambda b: b[:, :33], "t": lambda b: b.t(), "step": lambda b: b[::2]}[dim](
            base
        )
        y = x.prod()
        y.backward(Tensor(_draw([], 14)))
        return y.data, base.grad.data
    if op == "cumprod":
        x = Tensor(_draw(shape, 9, positive=True), requires_grad=True)
        y = x.cumprod(dim)
        y.backward(Tensor(_draw(shape, 10)))
        return y.data, x.grad.data
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


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_pytorchs_bits_on_avx2(case: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")
    got = _gradcli(case)
    assert all(a.dtype == np.dtype(case["dtype"]) for a in got)
    assert _hex(got[0]) == case["out"]
    if len(got) > 1:
        assert _hex(got[1]) == case["grad"]
    if len(got) > 2:
        assert _hex(got[2]) == case["wgrad"]


@pytest.mark.parametrize("case", [c for c in CASES if c["op"] in ("cumprod", "avg_pool")], ids=_id)
def test_the_same_on_every_family(case: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    """cumprod's product runs in double for float32 (ATen's acc_type), avg_pool sums a window
    in float32 in order and divides: scalar loops, the same on every machine."""
    monkeypatch.setenv(cpu.ENV, "avx512")
    out, grad = _gradcli(case)
    assert _hex(out) == case["out"] and _hex(grad) == case["grad"]


def test_the_old_rules_miss() -> None:
    x = _draw([3, 50], 9, positive=True)
    case = next(c for c in CASES if c["op"] == "cumprod" and c["shape"] == [3, 50])
    assert _hex(np.cumprod(x, axis=1)) != case["out"]  # a float32 running product
    x = _draw([2, 3, 17], 11)
    case = next(c for c in CASES if c["op"] == "avg_pool" and c["shape"] == [2, 3, 17])
    mean = x[..., :15].reshape(2, 3, 5, 3).astype(np.float64).mean(-1).astype(np.float32)
    assert _hex(mean) != case["out"]  # the float64 mean rounded once


@pytest.mark.parametrize("op", ["softmax", "log_softmax", "prod", "conv", "conv_transpose"])
def test_the_data_tells_the_families_apart(op: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The AVX-512 family's models (16 lanes, NumPy's product, oneDNN's avx512 chains) miss
    most recorded results: the recordings tell the models apart."""
    monkeypatch.setenv(cpu.ENV, "avx512")
    cases = [c for c in CASES if c["op"] == op]
    off = 0
    for case in cases:
        got = _gradcli(case)
        off += _hex(got[0]) != case["out"] or (len(got) > 1 and _hex(got[1]) != case["grad"])
    assert off >= len(cases) // 3, (off, len(cases))


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
    for k in range(4):
        c, o, kk = int(rng.integers(1, 20)), int(rng.integers(1, 40)), int(rng.choice([2, 3, 5]))
        x = rng.standard_normal((2, c, int(rng.integers(kk, 12)), 7)).astype(np.float32)
        w = rng.standard_normal((o, c, kk, 3)).astype(np.float32)
        tx = torch.from_numpy(x).requires_grad_()
        ty = torch.nn.functional.conv2d(tx, torch.from_numpy(w), padding=1)
        g = rng.standard_normal(tuple(ty.shape)).astype(np.float32)
        ty.backward(torch.from_numpy(g))
        gx = Tensor(x, requires_grad=True)
        gy = NF.conv2d(gx, Tensor(w), padding=1)
        gy.backward(Tensor(g))
        assert _hex(gy.data) == _hex(ty.detach().numpy()), (k, c, o, kk)
        assert _hex(gx.grad.data) == _hex(tx.grad.numpy()), (k, c, o, kk)


def test_hardsigmoid_gradient_outside_is_plus_zero() -> None:
    """PyTorch's kernel picks +0 outside (-3, 3) whatever the sign of the upstream gradient
    (`print` shows `-0.` for a negative zero)."""
    x = Tensor(np.array([-4.0, 0.5, 5.0], np.float32), requires_grad=True)
    NF.hardsigmoid(x).backward(Tensor(np.array([-1.0, -1.0, -2.0], np.float32)))
    got = x.grad.data
    assert not np.signbit(got[0]) and not np.signbit(got[2])
    assert got[1] == np.float32(-1) * np.float32(np.float32(1) / np.float32(6))
