"""float32 det, slogdet, solve and inv in the `avx2` kernel family are this machine's PyTorch's
to the bit (`gradcli.ops.lapack32` with MKL's generic code's arithmetic on an AMD processor:
the same orders as on AVX-512, each product rounded before it is added, and n = 3's U solve
multiplying by the reciprocal throughout): det, slogdet and solve with one right-hand side for
n = 2 to 11, inv and solve with three for n <= 8. Recorded with torch 2.13 on an AMD EPYC
(tests/ops/data/record_lapack32_avx2.py); a live check where torch runs on such a machine."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import cpu
from gradcli.core.tensor import Tensor
from gradcli.ops import lapack32
from gradcli.ops import linalg as LO
from gradcli.surface import linalg as L

DATA = json.loads((Path(__file__).parent / "data" / "lapack32_avx2.json").read_text())


@pytest.fixture
def avx2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")


def draw(n: int, seed: int, cols: int = 0) -> np.ndarray:
    rng = np.random.default_rng([n, seed, cols, 2])
    return rng.standard_normal((6, n, cols or n)).astype(np.float32)


def digest(a: np.ndarray) -> str:
    bits = np.ascontiguousarray(np.asarray(a, dtype=np.float32)).view(np.uint32)
    return hashlib.sha256(bits.tobytes()).hexdigest()[:16]


def _mismatches() -> list[str]:
    bad = []
    for key, want in DATA.items():
        n, op = key.split("/")
        n = int(n)
        a = Tensor(draw(n, 0))
        if op == "det":
            got = L.det(a)
        elif op == "slogdet":
            got = L.slogdet(a)[1]
        elif op == "inv":
            got = L.inv(a)
        else:
            b = draw(n, 1, 1) if op == "solve1" else draw(n, 2, 3)
            got = L.solve(a, Tensor(b))
        if digest(got.data) != want:
            bad.append(key)
    return bad


def test_recorded_bits(avx2: None) -> None:
    assert _mismatches() == []


def test_fused_multiply_adds_fail(avx2: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # the AVX-512 family's arithmetic (one rounding per multiply-add) on this family's data
    monkeypatch.setattr(lapack32, "_fma32", LO._fma32)
    assert len(_mismatches()) > len(DATA) // 2


@pytest.mark.skipif(cpu._detected() != "avx2", reason="PyTorch's bits differ on other processors")
def test_live_against_torch(avx2: None) -> None:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    rng = np.random.default_rng()
    for n in (2, 3, 4, 6, 7, 8):
        a = rng.standard_normal((4, n, n)).astype(np.float32)
        b = rng.standard_normal((4, n, 2)).astype(np.float32)
        ta, tb = torch.from_numpy(a), torch.from_numpy(b)
        assert np.array_equal(L.inv(Tensor(a)).data, torch.linalg.inv(ta).numpy())
        assert np.array_equal(L.det(Tensor(a)).data, torch.linalg.det(ta).numpy())
        got = L.solve(Tensor(a), Tensor(b)).data
        assert np.array_equal(got, torch.linalg.solve(ta, tb).numpy())
