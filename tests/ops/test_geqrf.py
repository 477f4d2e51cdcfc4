"""`torch.geqrf` (LAPACK's QR in its own form: R with the Householder vectors below it, and
tau) in the `avx2` kernel family is this machine's PyTorch's to the bit inside the sizes of
`core.mklgels._geqrf`'s model (MKL's ?geqrf on an AMD processor), recorded with torch 2.13
(tests/ops/data/record_geqrf.py) for tests/ops/geqrf_inputs.py; a model one ulp off fails;
its backward is PyTorch's refusal."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core import cpu, mklgels
from gradcli.core.tensor import Tensor
from gradcli.surface import linalg as L
from gradcli.surface import names  # noqa: F401 - installs the tensor methods

from .geqrf_inputs import DTYPES, matrices

DATA = json.loads((Path(__file__).parent / "data" / "geqrf_bits.json").read_text())


@pytest.fixture
def avx2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")


def _bits(x: np.ndarray) -> str:
    u = np.ascontiguousarray(x).view(np.uint32 if x.dtype == np.float32 else np.uint64)
    return " ".join(format(int(v), "x") for v in u.ravel())


def _mismatches() -> list[str]:
    bad = []
    for name, a in matrices():
        for dtype in DTYPES:
            r, tau = L.geqrf(Tensor(a.astype(dtype)))
            assert r.dtype == np.dtype(dtype) and tau.shape == a.shape[:-2] + (min(a.shape[-2:]),)
            if [_bits(r.data), _bits(tau.data)] != DATA[f"{name}/{dtype}"]:
                bad.append(f"{name}/{dtype}")
    return bad


def test_recorded_bits(avx2: None) -> None:
    assert _mismatches() == []


def test_a_model_one_ulp_off_fails(avx2: None, monkeypatch: pytest.MonkeyPatch) -> None:
    true = mklgels._lapy2
    monkeypatch.setattr(mklgels, "_lapy2", lambda x, y: np.nextafter(true(x, y), np.inf))
    assert len(_mismatches()) > len(DATA) // 2


def test_factors_rebuild_the_matrix() -> None:
    # Q = H_1 ... H_k from the reflectors, Q R = A (any kernel family)
    a = np.random.default_rng(5).standard_normal((6, 4))
    r, tau = (t.data for t in L.geqrf(Tensor(a)))
    q = np.eye(6)
    for i in range(4):
        v = np.concatenate([np.zeros(i), [1.0], r[i + 1 :, i]])
        q = q @ (np.eye(6) - tau[i] * np.outer(v, v))
    np.testing.assert_allclose(q[:, :4] @ np.triu(r[:4]), a, atol=1e-12)


def test_backward_is_refused_as_pytorch_does() -> None:
    x = Tensor(np.eye(3) + 1.0, requires_grad=True)
    r, _ = L.geqrf(x)
    assert r.grad_fn is not None and r.grad_fn.name() == "GeqrfBackward0"
    with pytest.raises(GradcliError, match="the derivative for 'geqrf' is not implemented."):
        r.sum().backward()
