"""`torch.linalg.eigh`'s eigenvector signs are MKL's (`gradcli.core.symeig`: LAPACK's ?sytd2 +
?steqr path with MKL's rotation convention), in both kernel families: recorded with torch 2.13
(tests/ops/data/record_eigh_signs.py) for the matrices of tests/ops/eigh_inputs.py, and a live
check against torch where it is installed."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import symeig
from gradcli.core.autograd import grad
from gradcli.core.tensor import Tensor
from gradcli.surface import linalg as L

from .eigh_inputs import matrices

DATA = json.loads((Path(__file__).parent / "data" / "eigh_signs.json").read_text())


def _pattern(v: np.ndarray) -> str:
    top = v[np.abs(v).argmax(0), np.arange(v.shape[1])]
    return "".join("+" if t > 0 else "-" for t in top)


def _mismatches() -> list[str]:
    bad = []
    for name, a in matrices():
        for dtype in ("float32", "float64"):
            for uplo in ("L", "U"):
                _, v = L.eigh(Tensor(a.astype(dtype)), UPLO=uplo)
                if _pattern(v.data) != DATA[f"{name}/{dtype}/{uplo}"]:
                    bad.append(f"{name}/{dtype}/{uplo}")
    return bad


def test_recorded_signs() -> None:
    assert _mismatches() == []


def test_the_newer_rotation_convention_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    # LAPACK 3.10's ?lartg (c >= 0, r signed like f): the signs NumPy's LAPACK gives
    def newer(f, g):
        if g == 0:
            return 1.0, 0.0, f
        if f == 0:
            return 0.0, float(np.sign(g)), abs(g)
        r = float(np.copysign(np.hypot(f, g), f))
        return abs(f) / abs(r), g / r, r

    monkeypatch.setattr(symeig, "_lartg", newer)
    assert len(_mismatches()) > len(DATA) // 3


def test_vectors_are_still_eigenvectors_and_gradient_is_central_differences() -> None:
    rng = np.random.default_rng(5)
    a = rng.standard_normal((5, 5))
    a = a + a.T
    w, v = L.eigh(Tensor(a))
    np.testing.assert_allclose(a @ v.data, v.data * w.data, atol=1e-12)
    wv = rng.standard_normal((5, 5))

    def f(m: np.ndarray) -> float:
        return float(np.sum(L.eigh(Tensor(m))[1].data * wv))

    x = Tensor(a.copy(), requires_grad=True)
    (g,) = grad((L.eigh(x)[1] * Tensor(wv)).sum(), [x])
    h = 1e-6
    fd = np.zeros_like(a)
    for idx in np.ndindex(a.shape):
        d = np.zeros_like(a)
        d[idx] = h
        fd[idx] = (f(a + d) - f(a - d)) / (2 * h)
    # PyTorch's gradient for a full (non-symmetrised) input: compare on the lower triangle's
    # symmetric perturbations, i.e. the symmetrised derivative
    np.testing.assert_allclose(g.data + g.data.T, fd + fd.T, atol=1e-6)


def test_live_against_torch() -> None:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    rng = np.random.default_rng()
    for n in (3, 4, 6, 9, 14, 20):
        a = rng.standard_normal((n, n))
        for uplo in ("L", "U"):
            want = torch.linalg.eigh(torch.from_numpy(a), UPLO=uplo).eigenvectors.numpy()
            _, v = L.eigh(Tensor(a), UPLO=uplo)
            assert np.all(np.sum(want * v.data, axis=0) > 0.5), (n, uplo)
