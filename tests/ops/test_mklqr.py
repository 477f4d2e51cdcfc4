"""`torch.linalg.qr` in the `avx2` kernel family is this machine's PyTorch's to the bit for
small matrices (`gradcli.core.mklgels.qr`: MKL's ?geqrf and ?orgqr on an AMD processor;
NumPy's LAPACK factors float32 through float64, so its R of the textbook 3 x 3 example is
whole numbers where PyTorch's float32 one is not). Recorded with torch 2.13 on an AMD EPYC
(tests/ops/data/record_qr.py) for the matrices of tests/ops/qr_inputs.py; the gradient is
checked against central differences in float64."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import cpu, mklgels
from gradcli.core.autograd import grad
from gradcli.core.tensor import Tensor
from gradcli.surface import linalg as L
from gradcli.surface import names  # noqa: F401 - installs the tensor methods
from gradcli.surface import random as R

from .qr_inputs import DTYPES, LARGE_MODES, MODES, ORTHOGONAL_SHAPES, large32, matrices

DATA = json.loads((Path(__file__).parent / "data" / "qr_bits.json").read_text())


@pytest.fixture
def avx2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")


def _bits(x: np.ndarray) -> str:
    u = np.ascontiguousarray(x).view(np.uint32 if x.dtype == np.float32 else np.uint64)
    return " ".join(format(int(v), "x") for v in u.ravel())


def _digest(x: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(x).tobytes()).hexdigest()[:20]


def _mismatches() -> list[str]:
    bad = []
    for name, a in large32():
        for mode in LARGE_MODES:
            q, r = L.qr(Tensor(a), mode=mode)
            if [_digest(q.data), _digest(r.data)] != DATA[f"{name}/float32/{mode}"]:
                bad.append(f"{name}/float32/{mode}")
    for name, a in matrices():
        for dtype in DTYPES:
            for mode in MODES:
                q, r = L.qr(Tensor(a.astype(dtype)), mode=mode)
                if [_bits(q.data), _bits(r.data)] != DATA[f"{name}/{dtype}/{mode}"]:
                    bad.append(f"{name}/{dtype}/{mode}")
    return bad


def test_recorded_bits(avx2: None) -> None:
    assert _mismatches() == []


def test_a_model_one_ulp_off_fails(avx2: None, monkeypatch: pytest.MonkeyPatch) -> None:
    true = mklgels._lapy2
    monkeypatch.setattr(mklgels, "_lapy2", lambda x, y: np.nextafter(true(x, y), np.inf))
    assert len(_mismatches()) > len(DATA) // 2


def test_larfg_norm_one_ulp_off_fails(avx2: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # ?geqr2's norm (square matrices from 21 rows) one ulp up: those records fail, no others
    true = mklgels._nrm2_larfg
    monkeypatch.setattr(mklgels, "_nrm2_larfg", lambda x: np.nextafter(true(x), np.inf))
    bad = _mismatches()
    assert {"L21x21/float32/r", "L30x30/float32/r", "L64x32/float32/reduced"} <= set(bad)
    assert all(k.startswith(("L21", "L30", "L56", "L64")) for k in bad)


def test_gemv_lanes_matter_for_q(avx2: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # ?larf's sums in order instead of MKL's ?gemv lanes: larger Q's change
    monkeypatch.setattr(
        mklgels, "_gemv_sums", lambda x, cols, *where: mklgels._running(x[:, None] * cols)
    )
    assert "L40x20/float32/reduced" in _mismatches()


def test_orgqr_running_order_matters(avx2: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # Q's sums reversed (same terms, other order): some float32 Q's bits change
    true = mklgels._running
    monkeypatch.setattr(mklgels, "_running", lambda t: true(t[::-1]))
    assert any("/float32/" in k and not k.endswith("/r") for k in _mismatches())


@pytest.mark.parametrize("shape", [(3, 3), (5, 2), (2, 4)])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_gradient_central_differences(avx2: None, shape: tuple[int, int], mode: str) -> None:
    rng = np.random.default_rng(7)
    a = rng.standard_normal(shape)
    if mode == "complete" and shape[0] > shape[1]:
        pytest.skip("PyTorch has no gradient for complete mode with more rows than columns")
    q0, r0 = L.qr(Tensor(a), mode=mode)
    wq = rng.standard_normal(q0.shape)
    wr = rng.standard_normal(r0.shape)

    def f(m: np.ndarray) -> float:
        q, r = L.qr(Tensor(m), mode=mode)
        return float(np.sum(q.data * wq) + np.sum(r.data * wr))

    x = Tensor(a.copy(), requires_grad=True)
    q, r = L.qr(x, mode=mode)
    (g,) = grad((q * Tensor(wq)).sum() + (r * Tensor(wr)).sum(), [x])
    h = 1e-6
    fd = np.zeros_like(a)
    for idx in np.ndindex(a.shape):
        d = np.zeros_like(a)
        d[idx] = h
        fd[idx] = (f(a + d) - f(a - d)) / (2 * h)
    np.testing.assert_allclose(g.data, fd, atol=1e-7, rtol=1e-6)


def test_unmodelled_sizes_keep_numpy(avx2: None) -> None:
    # float64 beyond 5 rows, and float32 Q from more than 32 reflectors (MKL's blocked ?orgqr)
    rng = np.random.default_rng(3)
    for a in (rng.standard_normal((6, 3)), rng.standard_normal((40, 33)).astype(np.float32)):
        assert mklgels.qr(a, "reduced") is None
        q, r = L.qr(Tensor(a))
        np.testing.assert_allclose(q.data @ r.data, a, atol=1e-4)
    assert mklgels.qr(rng.standard_normal((40, 33)).astype(np.float32), "r") is not None


def _orthogonal_mismatches() -> list[int]:
    bad = []
    for i, shape in enumerate(ORTHOGONAL_SHAPES):
        w = R.orthogonal_(shape, generator=R.Generator().manual_seed(i))
        if _digest(w) != DATA[f"orthogonal/{i}"]:
            bad.append(i)
    return bad


def test_orthogonal_init_recorded_bits(avx2: None) -> None:
    assert _orthogonal_mismatches() == []


def test_orthogonal_init_float64_qr_fails(avx2: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # the float64 factorisation rounded (the other family's way) misses PyTorch's float32 bits
    monkeypatch.setattr(mklgels, "qr", lambda a, mode: None)
    assert len(_orthogonal_mismatches()) >= len(ORTHOGONAL_SHAPES) - 1


@pytest.mark.skipif(cpu._detected() != "avx2", reason="PyTorch's bits differ on other processors")
def test_live_against_torch(avx2: None) -> None:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    rng = np.random.default_rng()
    for m, n in ((7, 7), (13, 4), (22, 22), (33, 17), (58, 30), (90, 12)):
        a = rng.standard_normal((m, n)).astype(np.float32)
        for mode in ("reduced", "complete"):
            tq, tr = torch.linalg.qr(torch.from_numpy(a), mode=mode)
            q, r = L.qr(Tensor(a), mode=mode)
            assert np.array_equal(q.data, tq.numpy()) and np.array_equal(r.data, tr.numpy())
    seed = int(rng.integers(1 << 30))
    for shape in ((5, 9), (20, 20), (32, 12)):
        want = torch.nn.init.orthogonal_(
            torch.empty(shape), generator=torch.Generator().manual_seed(seed)
        )
        got = R.orthogonal_(shape, generator=R.Generator().manual_seed(seed))
        assert np.array_equal(got, want.numpy())


def test_orthogonal_init_says_when_its_qr_is_not_pytorchs(avx2: None) -> None:
    # a Q whose factorisation is not MKL's mirrored order (more than 32 reflectors: the blocked
    # ?orgqr) is reported to the caller's `note` (nn.init's: once on stderr); a mirrored one
    # is not
    said: list = []
    R.orthogonal_((40, 12), generator=R.Generator().manual_seed(1), note=lambda *a: said.append(a))
    assert said == []
    R.orthogonal_((40, 33), generator=R.Generator().manual_seed(1), note=lambda *a: said.append(a))
    assert said == [(40, 33, "float32")]
