"""On the avx2 kernel family (gradcli.core.cpu: PyTorch on an AVX2 processor without AVX-512,
measured on AMD EPYC), float32 Euclidean cdist of 25 rows or fewer (ATen's direct kernel:
`matrices._cdist2_avx2`) and its gradients (`_cdist2_grad_avx2`) are PyTorch's to the bit.
Recorded there with torch 2.13 (tests/ops/data/record_avx2_cdist.py)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import cpu
from gradcli.core.tensor import Tensor
from gradcli.ops import matrices
from gradcli.surface import linalg as L

CASES = json.loads((Path(__file__).parent / "data" / "avx2_cdist.json").read_text())["cases"]


def _draw(shape, seed):
    return np.random.default_rng([*shape, seed]).standard_normal(shape).astype(np.float32)


def _sha(a) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()


def _run(shape) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r1, r2, m = shape
    x, w = _draw((r1, m), 1), _draw((r2, m), 2)
    w[0] = x[0]
    xt, wt = Tensor(x, requires_grad=True), Tensor(w, requires_grad=True)
    out = L.cdist(xt, wt)
    out.backward(Tensor(_draw((r1, r2), 3)))
    return out.data, xt.grad.data, wt.grad.data


@pytest.mark.parametrize("case", CASES, ids=lambda c: "x".join(map(str, c["shape"])))
def test_pytorchs_bits_on_avx2(case: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")
    y, gx, gw = _run(case["shape"])
    assert (_sha(y), _sha(gx), _sha(gw)) == (case["y"], case["gx"], case["gw"])


def test_the_rules_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """The avx512 family's sum (float64, rounded once) and composed gradient miss several
    recordings; so does the forward's in-order sum without its fused tail."""
    monkeypatch.setenv(cpu.ENV, "avx512")
    assert sum(_sha(_run(c["shape"])[1]) != c["gx"] for c in CASES) >= 3
    monkeypatch.setenv(cpu.ENV, "avx2")
    off = 0
    for c in CASES:
        r1, r2, m = c["shape"]
        x, w = _draw((r1, m), 1), _draw((r2, m), 2)
        w[0] = x[0]
        d = np.abs(x[:, None] - w[None]).astype(np.float32)
        acc = np.zeros((r1, r2), np.float32)
        for k in range(m):
            acc = acc + d[..., k] * d[..., k]
        off += _sha(np.sqrt(acc)) != c["y"]
        assert _sha(matrices._cdist2_avx2(x, w)) == c["y"]
    assert off >= 2


@pytest.mark.skipif(cpu._detected() != "avx2", reason="torch's bits here are the avx2 family's")
def test_live_against_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    monkeypatch.setenv(cpu.ENV, "avx2")
    rng = np.random.default_rng()
    for _ in range(10):
        r1, r2, m = (int(v) for v in rng.integers(1, 26, 3))
        x = rng.standard_normal((r1, m)).astype(np.float32)
        w = rng.standard_normal((r2, m)).astype(np.float32)
        g = rng.standard_normal((r1, r2)).astype(np.float32)
        xt, wt = torch.from_numpy(x).requires_grad_(), torch.from_numpy(w).requires_grad_()
        out = torch.cdist(xt, wt)
        out.backward(torch.from_numpy(g))
        gx, gw = Tensor(x, requires_grad=True), Tensor(w, requires_grad=True)
        got = L.cdist(gx, gw)
        got.backward(Tensor(g))
        assert _sha(got.data) == _sha(out.detach().numpy()), (r1, r2, m)
        assert _sha(gx.grad.data) == _sha(xt.grad.numpy()), (r1, r2, m)
        assert _sha(gw.grad.data) == _sha(wt.grad.numpy()), (r1, r2, m)
