"""float32 asinh and acosh are ATen's scalar loops over the C library's asinhf and acoshf.
For many elements (past `sleef32.LIBM_CALLS`) the avx2 family computes them with
`glibc32.asinhf`/`acoshf` (fdlibm's algorithms on glibc's logf and log1pf) instead of the
float64 value rounded once (17% of last bits differ): checked here element for element
against the C library of this process."""

from __future__ import annotations

import numpy as np
import pytest

import gradcli
from gradcli.core import cpu, glibc32, sleef32
from gradcli.surface import names  # noqa: F401 - installs the tensor methods


def _library(name: str):
    call = sleef32._libm(name)
    if call is None or not glibc32.proven("logf", sleef32._libm("logf")):
        pytest.skip("the C library's functions cannot be called or read here")
    return call


@pytest.mark.parametrize("name", ["asinhf", "acoshf"])
def test_emulation_equals_the_library(name: str) -> None:
    call = _library(name)
    assert glibc32.proven(name, call)
    rng = np.random.default_rng(9)
    x = np.concatenate(
        [
            (rng.standard_normal(3000) * 4).astype(np.float32),
            (1 + np.abs(rng.standard_normal(3000))).astype(np.float32),
            np.array([1, 2, 2**14, 2**28, 1e30, -1e30, 2**-15, 0.5, np.inf], np.float32),
        ]
    )
    want = np.array([call(v) for v in x.tolist()], np.float32)
    got = getattr(glibc32, name)(x)
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan)
    assert np.array_equal(got[~nan].view(np.uint32), want[~nan].view(np.uint32))


@pytest.mark.parametrize("family", cpu.FAMILIES)
def test_many_elements_follow_the_library(monkeypatch: pytest.MonkeyPatch, family: str) -> None:
    # (ATen's asinh and acosh call the C library per element on every machine)
    monkeypatch.setenv(cpu.ENV, family)
    call = _library("asinhf")
    rng = np.random.default_rng(10)
    x = (rng.standard_normal(sleef32.LIBM_CALLS + 500) * 3).astype(np.float32)
    got = gradcli.Tensor(x).asinh().numpy()
    assert np.array_equal(got, np.array([call(v) for v in x.tolist()], np.float32))
    y = np.abs(x) + np.float32(1)
    acosh = _library("acoshf")
    got = gradcli.Tensor(y).acosh().numpy()
    assert np.array_equal(got, np.array([acosh(v) for v in y.tolist()], np.float32))
