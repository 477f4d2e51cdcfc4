"""The C library's logf and log1pf in NumPy (gradcli/core/glibc32.py): equal, bit for bit, to
the library's own functions called element by element (what ATen's scalar loops call: the
binary_cross_entropy kernel), on random arguments over each branch; used by `sleef32.libm` for
arrays past its scalar-call budget; and a library that differs in one element is found out."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.core import glibc32 as G
from gradcli.core import sleef32 as S


def _call(name: str):
    f = S._libm(name)
    if f is None:
        pytest.skip("no C math library to call here")
    return f


def _bits(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a, np.float32)
    return np.where(np.isnan(a), np.uint32(0x7FC00000), a.view(np.uint32))


def _library(name: str, x: np.ndarray) -> np.ndarray:
    f = _call(name)
    return np.array([f(v) for v in x.tolist()], np.float32)


def _arguments(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    unit = rng.random(40_000).astype(np.float32)
    spread = np.exp(rng.uniform(-100, 88, 20_000)).astype(np.float32)
    near_one = (1 + rng.uniform(-1e-3, 1e-3, 10_000)).astype(np.float32)
    tiny = np.exp(rng.uniform(-103, -80, 2_000)).astype(np.float32)  # subnormals included
    return np.concatenate([unit, -unit, spread, -spread, near_one, tiny, -tiny])


@pytest.mark.parametrize("name", ["logf", "log1pf"])
def test_equal_to_the_c_librarys_function(name: str) -> None:
    call = _call(name)
    assert G.proven(name, call)
    x = _arguments(7)
    if name == "logf":
        x = np.abs(x)
    got = G.emulated(name, x, call)
    want = _library(name, x)
    assert np.array_equal(_bits(got), _bits(want))


@pytest.mark.parametrize("name", ["logf", "log1pf"])
def test_special_arguments(name: str) -> None:
    call = _call(name)
    x = np.array(
        [0, -0.0, 1, -1, -2, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 2**-29, -(2**-29), 3e38],
        np.float32,
    )
    assert np.array_equal(_bits(G.emulated(name, x, call)), _bits(_library(name, x)))


def test_libm_uses_them_past_its_scalar_budget() -> None:
    _call("logf")
    rng = np.random.default_rng(3)
    p = rng.random(S.LIBM_CALLS * 3).astype(np.float32).reshape(3, -1)
    for name, arg in (("logf", p), ("log1pf", -p)):
        got = S.libm(name, arg, np.log)
        assert got.shape == arg.shape
        want = _library(name, arg.reshape(-1)).reshape(arg.shape)
        assert np.array_equal(_bits(got), _bits(want))


def test_a_library_one_bit_off_is_found_out(monkeypatch: pytest.MonkeyPatch) -> None:
    real = _call("log1pf")
    monkeypatch.setattr(G, "_PROVEN", {})
    probe = G._probe()
    victim = float(probe[5])

    def off(v: float) -> float:
        r = real(v)
        if v == victim:
            return float(np.nextafter(np.float32(r), np.float32(np.inf)))
        return r

    assert not G.proven("log1pf", off)
    assert G.proven("log1pf", real) is False  # the verdict is kept for the process
