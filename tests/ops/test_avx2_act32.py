"""On the avx2 kernel family (gradcli.core.cpu: PyTorch on an AVX2 processor without
AVX-512, measured on AMD EPYC), ATen's elementwise float32 loops take two 8-float vectors a
step: the whole steps of 16 elements go through SLEEF's vector functions, the last n % 16
through the C library's (32 and n % 32 on AVX-512; `sleef32.vec_step`). With that split the
activations of `gradcli.ops.act32` and pow (`core.powf32`) are PyTorch's to the bit here,
forward and backward, contiguous and strided. Recorded there with torch 2.13
(tests/ops/data/record_avx2_act32.py)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

import gradcli
from gradcli.core import cpu, sleef32
from gradcli.surface import composite as C
from gradcli.surface import functional as F
from gradcli.surface import names  # noqa: F401 - installs the tensor methods
from gradcli.surface import nnfunctional as N

DATA = json.loads((Path(__file__).parent / "data" / "avx2_act32.json").read_text())
CASES = DATA["cases"]

OPS = {
    "sigmoid": lambda x, p, w: x.sigmoid(),
    "silu": lambda x, p, w: C.silu(x),
    "gelu_tanh": lambda x, p, w: F.gelu(x, approximate="tanh"),
    "elu": lambda x, p, w: N.elu(x),
    "selu": lambda x, p, w: N.selu(x),
    "celu": lambda x, p, w: N.celu(x, alpha=0.7),
    "softplus": lambda x, p, w: F.softplus(x),
    "logsigmoid": lambda x, p, w: C.logsigmoid(x),
    "mish": lambda x, p, w: N.mish(x),
    "pow_1.7": lambda x, p, w: p**1.7,
    "pow_xw": lambda x, p, w: p**w,
}
VIEWS = {
    None: lambda t: t,
    "cols": lambda t: t[:, :21],
    "chunk": lambda t: t.chunk(2, 1)[1],
    "t": lambda t: t.t(),
}


def _draw(shape, seed):
    rng = np.random.default_rng([*shape, seed, 2])
    x = rng.standard_normal(shape) * rng.choice([0.5, 3.0, 12.0], shape)
    far = rng.random(shape) < 0.05
    x = np.where(far, rng.uniform(-110, 110, shape), x).astype(np.float32)
    p = rng.uniform(0.05, 4.0, shape).astype(np.float32)
    w = rng.standard_normal(shape).astype(np.float32)
    g = rng.standard_normal(shape).astype(np.float32)
    return x, p, w, g


def _sha(a) -> str:
    return hashlib.sha256(np.ascontiguousarray(np.asarray(a)).tobytes()).hexdigest()


def _run(case: dict) -> tuple[np.ndarray, list]:
    leaves = [gradcli.Tensor(a, requires_grad=True) for a in _draw(case["shape"], 0)[:3]]
    cut = VIEWS[case["view"]]
    y = OPS[case["op"]](*(cut(a) for a in leaves))
    y.backward(gradcli.Tensor(_draw(list(y.shape), 1)[3]))
    return y.numpy(), [a.grad.numpy() if a.grad is not None else None for a in leaves]


def _matches(case: dict) -> bool:
    y, grads = _run(case)
    return _sha(y) == case["y"] and [None if g is None else _sha(g) for g in grads] == case["grads"]


def _id(c: dict) -> str:
    return f"{c['op']}-{c['shape']}-{c['view']}"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_pytorchs_bits_on_avx2(case: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")
    y, grads = _run(case)
    assert y.dtype == np.float32
    assert _sha(y) == case["y"]
    assert [None if g is None else _sha(g) for g in grads] == case["grads"]


def test_the_step_is_the_familys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")
    assert sleef32.vec_step() == 16 and sleef32.vector_count(40) == 32
    monkeypatch.setenv(cpu.ENV, "avx512")
    assert sleef32.vec_step() == 32 and sleef32.vector_count(40) == 32


def test_the_data_tells_the_steps_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """With AVX-512's step of 32, elements 16..31 of a loop of 17 to 31 (or of 48+) go through
    the C library instead of SLEEF: the recordings miss for every op but logsigmoid (whose
    kernel, already a scalar-free formula, takes the same bits either way)."""
    monkeypatch.setenv(cpu.ENV, "avx512")
    for op in OPS:
        if op == "logsigmoid":
            continue
        cases = [c for c in CASES if c["op"] == op]
        assert sum(not _matches(c) for c in cases) >= 2, op


@pytest.mark.parametrize("key", sorted(DATA["nan_steps"]))
def test_nan_gradients_follow_the_avx2_steps(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """hardswish's and logit's backward kernels treat NaN one way in their vector steps (two
    vectors: 64 bytes on AVX2) and another in the scalar tail (`elementwise.in_vector_loop`)."""
    monkeypatch.setenv(cpu.ENV, "avx2")
    name, n = key.rsplit("-", 1)
    x = gradcli.Tensor(np.full(int(n), np.nan, np.float32), requires_grad=True)
    y = N.hardswish(x) if name == "hardswish" else x.logit(eps=0.1)
    y.backward(gradcli.Tensor(np.ones(int(n), np.float32)))
    assert np.isnan(x.grad.numpy()).tolist() == DATA["nan_steps"][key]


def test_one_ulp_off_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")
    case = next(c for c in CASES if c["op"] == "sigmoid" and c["shape"] == [24])
    y, _ = _run(case)
    nudged = y.copy()
    nudged[20] = np.nextafter(nudged[20], np.float32(1))
    assert _sha(y) == case["y"] and _sha(nudged) != case["y"]


@pytest.mark.skipif(cpu._detected() != "avx2", reason="torch's bits here are the avx2 family's")
def test_live_against_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    torch = pytest.importorskip("torch")
    import torch.nn.functional as TF

    torch.set_num_threads(1)
    monkeypatch.setenv(cpu.ENV, "avx2")
    live = {
        "sigmoid": lambda x, p, w: torch.sigmoid(x),
        "silu": lambda x, p, w: TF.silu(x),
        "gelu_tanh": lambda x, p, w: TF.gelu(x, approximate="tanh"),
        "elu": lambda x, p, w: TF.elu(x),
        "selu": lambda x, p, w: TF.selu(x),
        "celu": lambda x, p, w: TF.celu(x, alpha=0.7),
        "softplus": lambda x, p, w: TF.softplus(x),
        "logsigmoid": lambda x, p, w: TF.logsigmoid(x),
        "mish": lambda x, p, w: TF.mish(x),
        "pow_1.7": lambda x, p, w: p**1.7,
        "pow_xw": lambda x, p, w: p**w,
    }
    rng = np.random.default_rng()
    for _ in range(3):
        shape = [int(rng.integers(1, 6)), int(rng.integers(1, 70))]
        arrays = _draw(shape, int(rng.integers(1 << 30)))
        for name, f in live.items():
            tl = [torch.tensor(a, requires_grad=True) for a in arrays[:3]]
            ty = f(*tl)
            ty.backward(torch.from_numpy(arrays[3]))
            gl = [gradcli.Tensor(a, requires_grad=True) for a in arrays[:3]]
            gy = OPS[name](*gl)
            gy.backward(gradcli.Tensor(arrays[3]))
            assert _sha(gy.numpy()) == _sha(ty.detach().numpy()), (name, shape)
            for a, b in zip(gl, tl):
                if b.grad is not None:
                    assert _sha(a.grad.numpy()) == _sha(b.grad.numpy()), (name, shape)
