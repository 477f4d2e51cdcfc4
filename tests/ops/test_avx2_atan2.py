"""On the avx2 kernel family (gradcli.core.cpu: PyTorch on an AVX2 processor without AVX-512,
measured on AMD EPYC), float32 atan2 is PyTorch's to the bit: SLEEF's atan2f (u10) on the
loop's vector steps (`sleef32.atan2f`), the C library's atan2f on the tail
(`binary._atan2_loop`). Recorded there with torch 2.13 (tests/ops/data/record_avx2_atan2.py)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import cpu, sleef32
from gradcli.ops import binary

CASES = json.loads((Path(__file__).parent / "data" / "avx2_atan2.json").read_text())["cases"]


def _draw(n, seed):
    rng = np.random.default_rng([n, seed])
    return (rng.standard_normal(n) * rng.choice([1e-3, 1.0, 10.0, 1e4], n)).astype(np.float32)


def _specials():
    sp = np.array([0, -0.0, np.inf, -np.inf, np.nan, 1, -1, 1e-40, -1e-40, 3e-39], np.float32)
    y, x = np.meshgrid(sp, sp)
    return y.ravel(), x.ravel()


def _sha(a) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()


def _inputs(name: str) -> tuple[np.ndarray, np.ndarray]:
    a = _draw(111, 5).reshape(3, 37)
    if name == "random":
        return _draw(4096, 1), _draw(4096, 2)
    if name == "specials":
        return _specials()
    if name == "broadcast":
        return a, _draw(37, 6)
    if name == "transposed":
        return a, _draw(111, 7).reshape(37, 3).T
    if name == "scalar":
        return a, np.float32(0.7) * np.ones((), np.float32)
    n = int(name[1:])
    return _draw(n, 3), _draw(n, 4)


@pytest.mark.parametrize("name", sorted(CASES))
def test_pytorchs_bits_on_avx2(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")
    got = binary._atan2_fwd(*_inputs(name))
    assert got.dtype == np.float32 and _sha(got) == CASES[name]


def test_correct_rounding_is_not_it() -> None:
    """The float64 result rounded once (the avx512 family's) misses the recording, as does
    SLEEF's function an ulp off in one place."""
    y, x = _inputs("random")
    rounded = np.arctan2(y.astype(np.float64), x.astype(np.float64)).astype(np.float32)
    assert _sha(rounded) != CASES["random"]
    nudged = sleef32.atan2f(y, x)
    nudged[100] = np.nextafter(nudged[100], np.float32(9))
    assert _sha(nudged) != CASES["random"]


def test_the_vector_function_alone_on_whole_steps() -> None:
    y, x = _inputs("random")  # 4096 elements: every one by the vector function
    assert _sha(sleef32.atan2f(y, x)) == CASES["random"]


@pytest.mark.skipif(cpu._detected() != "avx2", reason="torch's bits here are the avx2 family's")
def test_live_against_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    monkeypatch.setenv(cpu.ENV, "avx2")
    rng = np.random.default_rng()
    for _ in range(5):
        n = int(rng.integers(1, 5000))
        y = (rng.standard_normal(n) * 10 ** rng.uniform(-6, 6, n)).astype(np.float32)
        x = (rng.standard_normal(n) * 10 ** rng.uniform(-6, 6, n)).astype(np.float32)
        want = torch.atan2(torch.from_numpy(y), torch.from_numpy(x)).numpy()
        assert _sha(binary._atan2_fwd(y, x)) == _sha(want), n
