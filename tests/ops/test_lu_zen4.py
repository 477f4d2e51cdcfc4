"""LU factors on this session's AMD Zen 4 host are PyTorch's to the bit: complex128 and
complex64 (`ops.lu`: MKL's zgetrf / cgetrf order, its pivot by |re| + |im| and its reciprocal
of the pivot in a wider type, in every family) and float64 with MKL's AVX2 arithmetic (the
`zen4` family: each product rounded before it is subtracted), and float64 det and slogdet
(the sign of a singular matrix's zero as PyTorch's). Recorded with
torch 2.13 (tests/ops/data/record_lu_zen4.py)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import cpu
from gradcli.ops import lapack32
from gradcli.ops import lu as LU

DATA = json.loads((Path(__file__).parent / "data" / "lu_zen4.json").read_text())


def draw(dtype: str, n: int) -> np.ndarray:
    rng = np.random.default_rng([n, len(dtype), 40])
    a = rng.standard_normal((8, n, n))
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal((8, n, n))
    return a.astype(dtype)


def singular() -> np.ndarray:
    rng = np.random.default_rng(1942)
    a = rng.standard_normal((6, 4, 4))
    a[0, 3] = a[0, 1]
    a[1, :, 2] = a[1, :, 0] + a[1, :, 1]
    a[2] = np.outer(a[2, 0], a[2, 1])
    a[3, :, 3] = 0.0
    a[4] = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]
    a[5, 2] = 2 * a[5, 0] - a[5, 1]
    return a


def digest(*arrays: np.ndarray) -> str:
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]


def _mismatches(kinds: tuple[str, ...]) -> list[str]:
    bad = []
    for key, want in DATA.items():
        parts = key.split("/")
        if parts[0] in ("det", "slogdet"):
            if "det" in kinds:
                a = singular() if parts[1] == "singular" else draw("float64", int(parts[1]))
                f = lapack32.det64 if parts[0] == "det" else lapack32.slogdet64
                if digest(f(a)) != want:
                    bad.append(key)
            continue
        dtype, n, layout = parts[0], int(parts[1]), parts[2]
        if dtype not in kinds:
            continue
        a = draw(dtype, n)
        lu, piv, _ = LU.factor(a if layout == "rows" else np.swapaxes(a, -1, -2))
        if digest(lu, piv.astype(np.int64) + 1) != want:
            bad.append(key)
    return bad


def test_complex_factors_are_mkls() -> None:
    assert _mismatches(("complex128", "complex64")) == []


def test_float64_factors_det_and_slogdet_on_zen4(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "zen4")
    assert _mismatches(("float64", "det")) == []
    # the avx512 family's fused multiply-adds miss most of this host's bits
    monkeypatch.setenv(cpu.ENV, "avx512")
    assert len(_mismatches(("float64", "det"))) > 20


def test_numpys_reciprocal_is_not_mkls(monkeypatch: pytest.MonkeyPatch) -> None:
    # the complex pivot's reciprocal in double precision (NumPy's 1 / z) misses MKL's bits
    monkeypatch.setattr(LU, "creciprocal", lambda z: 1 / z)
    assert len(_mismatches(("complex128", "complex64"))) > 10


def test_complex64_past_the_measured_sizes_is_refused() -> None:
    from gradcli.base.errors import NotSupported
    from gradcli.core.tensor import Tensor
    from gradcli.surface import linalg as L

    big = Tensor(draw("complex64", 16).repeat(2, axis=-1).repeat(2, axis=-2)[0, :17, :17])
    with pytest.raises(NotSupported, match="larger than 16 x 16"):
        L.lu_factor(big)
    small = Tensor(draw("complex64", 3)[0], requires_grad=True)
    with pytest.raises(NotSupported, match="gradient of torch.linalg.lu of a complex64"):
        L.linalg_lu(small)
    lu, piv = L.lu_factor(Tensor(draw("complex64", 11)[0]))
    with pytest.raises(NotSupported, match="larger than 8 x 8"):
        L.linalg_lu_solve(lu, piv, Tensor(np.ones((11, 1), np.complex64)))
    assert L.lu_factor(Tensor(draw("complex64", 16)[0]))[0].dtype == np.complex64
