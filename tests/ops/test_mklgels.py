"""`torch.linalg.lstsq` (drivers 'gels' and 'gelsy') in the `avx2` kernel family is this
machine's PyTorch's to the bit (`gradcli.core.mklgels`: MKL's Householder QR on an AMD
processor). Recorded with torch 2.13 on an AMD EPYC (tests/ops/data/record_lstsq.py): the
solution bits of the systems of tests/ops/lstsq_inputs.py, batches of three ('gelsy': the
last two, PyTorch's first one being pivoted by chance). A live cross-check on fresh systems
runs where torch is installed on such a machine. The gradient stays pinv(A)'s; 'gels' gives
ATen's residuals (the rows of Q^T B below the solution's, squared and summed)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import cpu, mklgels
from gradcli.core.tensor import Tensor
from gradcli.surface import extras as X

from .lstsq_inputs import dtypes, systems

DATA = json.loads((Path(__file__).parent / "data" / "lstsq_bits.json").read_text())
SYSTEMS = systems()


@pytest.fixture
def avx2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")


def _bits(x: np.ndarray) -> str:
    u = np.ascontiguousarray(x).view(np.uint32 if x.dtype == np.float32 else np.uint64)
    return " ".join(format(int(v), "x") for v in u.ravel())


def _mismatches() -> list[str]:
    bad = []
    for name, a, b in SYSTEMS:
        for dtype in dtypes(name):
            for driver in ("gels", "gelsy"):
                r = X.lstsq(Tensor(a.astype(dtype)), Tensor(b.astype(dtype)), driver=driver)
                got = r[0].data[1:] if driver == "gelsy" else r[0].data
                if _bits(got) != DATA[f"{name}/{dtype}/{driver}"]:
                    bad.append(f"{name}/{dtype}/{driver}")
                key = f"{name}/{dtype}/residuals"
                if driver == "gels" and key in DATA and _bits(r[1].data) != DATA[key]:
                    bad.append(key)
    return bad


def test_recorded_bits(avx2: None) -> None:
    assert _mismatches() == []


def test_a_model_one_ulp_off_fails(avx2: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # lapy2 (beta's size) one unit in the last place too large: the record tells
    true = mklgels._lapy2
    monkeypatch.setattr(mklgels, "_lapy2", lambda x, y: np.nextafter(true(x, y), np.inf))
    assert len(_mismatches()) > len(DATA) // 2
    # ... and ?gemv's sums taken in plain order
    monkeypatch.setattr(mklgels, "_lapy2", true)
    monkeypatch.setattr(
        mklgels, "_gemv_sums", lambda x, cols, *where: (x[:, None] * cols).sum(0).astype(x.dtype)
    )
    assert _mismatches()


def test_an_exactly_solvable_line_gives_exact_zeros(avx2: None) -> None:
    a = Tensor(np.array([[1.0, 1.0], [1.0, 2.0], [1.0, 3.0]]))
    for dtype in (np.float32, np.float64):
        x = X.lstsq(Tensor(a.data.astype(dtype)), Tensor(np.array([1.0, 2.0, 3.0], dtype)))[0]
        assert x.data.tolist() == [0.0, 1.0] and np.signbit(x.data[0])  # PyTorch: [-0., 1.]


def test_the_avx512_family_keeps_the_pinv_values(monkeypatch: pytest.MonkeyPatch) -> None:
    from gradcli.ops import arithmetic as A
    from gradcli.surface.linalg import pinv

    monkeypatch.setenv(cpu.ENV, "avx512")
    a = Tensor(np.array([[1.0, 1.0], [1.0, 2.0], [1.0, 3.0]]))
    b = Tensor(np.array([[1.0], [2.0], [3.0]]))
    x = X.lstsq(a, b)[0]
    assert np.array_equal(x.data, A.matmul(pinv(a, rtol=3 * np.finfo(np.float64).eps), b).data)
    assert x.data[0, 0] != 0  # (not measured on an AVX-512 machine: left as it was)


def test_the_gradient_is_still_pinvs(avx2: None) -> None:
    rng = np.random.default_rng(3)
    a0 = rng.standard_normal((5, 2))
    b0 = rng.standard_normal((5, 1))
    g = rng.standard_normal((2, 1))
    a = Tensor(a0.copy(), requires_grad=True)
    b = Tensor(b0.copy(), requires_grad=True)
    (X.lstsq(a, b)[0] * Tensor(g)).sum().backward()

    def f(av: np.ndarray, bv: np.ndarray) -> float:
        return float((np.linalg.pinv(av) @ bv * g).sum())

    h = 1e-6
    for t, base, other in ((a, a0, b0), (b, b0, a0)):
        fd = np.zeros_like(base)
        for idx in np.ndindex(base.shape):
            up, dn = base.copy(), base.copy()
            up[idx] += h
            dn[idx] -= h
            args = ((up, other), (dn, other)) if t is a else ((other, up), (other, dn))
            fd[idx] = (f(*args[0]) - f(*args[1])) / (2 * h)
        assert np.allclose(t.grad.data, fd, rtol=1e-6, atol=1e-8)


@pytest.mark.skipif(cpu._detected() != "avx2", reason="PyTorch's bits differ on other processors")
def test_live_against_torch(avx2: None) -> None:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    rng = np.random.default_rng()
    for i in range(40):
        dtype = "float32" if i % 2 else "float64"
        m = int(rng.integers(2, 60))
        # (up to 8 unknowns with one right-hand side, or up to 6 of these with 3)
        many = i % 3 == 0
        n = int(rng.integers(1, min(m, 8 if many else 3) + 1))
        k = 1 if many else int(rng.integers(1, 7))
        a = rng.standard_normal((2, m, n)).astype(dtype)
        b = rng.standard_normal((2, m, k)).astype(dtype)
        want = torch.linalg.lstsq(torch.from_numpy(a), torch.from_numpy(b), driver="gels")
        got = X.lstsq(Tensor(a), Tensor(b), driver="gels")[0]
        assert _bits(got.data) == _bits(want.solution.numpy()), (m, n, k, dtype)
