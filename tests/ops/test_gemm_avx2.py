"""Float32 matrix products of the avx2 kernel family (`ops.gemm_avx2`, `core.mkldot`'s sdot):
PyTorch 2.13's bits on an AVX2 machine (AMD EPYC, one thread; `data/gemm_avx2_record.py`,
inputs made by arithmetic, only the results recorded) against gradcli's under
GRADCLI_KERNELS=avx2, every element bit for bit, through the records a program reaches
(matmul, F.linear, mv, dot); and a live check against PyTorch where this machine is of the
family."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import cpu
from gradcli.core.tensor import Tensor
from gradcli.ops import gemm_avx2
from gradcli.ops import linalg as L
from gradcli.ops.arithmetic import matmul
from gradcli.surface.composite import linear
from gradcli.surface.linalg import addmm

DATA = Path(__file__).resolve().parent / "data"
sys.path.insert(0, str(DATA))
import gemm_avx2_record as R  # noqa: E402

sys.path.remove(str(DATA))


@pytest.fixture(autouse=True)
def _avx2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_KERNELS", "avx2")


def gradcli_result(case: int, kind: str, m: int, k: int, n: int) -> np.ndarray:
    x, y, w, b, v = R.inputs(case, kind, m, k, n)
    if kind == "nn":
        r = matmul(Tensor(x), Tensor(y))
    elif kind == "tn":
        r = matmul(Tensor(np.ascontiguousarray(x.T).T), Tensor(y))
    elif kind == "nt":
        r = matmul(Tensor(x), Tensor(w.T))
    elif kind == "linear":
        r = linear(Tensor(x), Tensor(w), Tensor(b))
    elif kind == "mv":
        r = matmul(Tensor(x), Tensor(v))
    elif kind == "vm":
        r = matmul(Tensor(v), Tensor(y))
    elif kind == "lin1d":
        r = linear(Tensor(v), Tensor(w), Tensor(b))
    elif kind == "bmm":
        r = matmul(Tensor(x), Tensor(y))
    elif kind == "addmm":
        r = addmm(Tensor(b), Tensor(x), Tensor(y))
    elif kind == "ntview":
        r = matmul(Tensor(R.rows_view(case, m, k)), Tensor(w.T))
    else:
        r = matmul(Tensor(v), Tensor(np.ascontiguousarray(v[::-1])))
    return np.asarray(r.data, np.float32).reshape(-1)


def _recorded() -> list[np.ndarray]:
    data = np.load(DATA / "gemm_avx2.npz")
    bits, out, start = data["bits"], [], 0
    for n in data["lengths"]:
        out.append(bits[start : start + int(n)])
        start += int(n)
    return out


def _differing(results: list[np.ndarray]) -> list[int]:
    want = _recorded()
    assert len(want) == len(results) == len(R.cases())
    return [
        i for i, (g, w) in enumerate(zip(results, want)) if not np.array_equal(g.view(np.uint32), w)
    ]


def test_every_recorded_product_is_pytorchs_on_avx2() -> None:
    got = [gradcli_result(i, *c) for i, c in enumerate(R.cases())]
    bad = _differing(got)
    assert not bad, [R.cases()[i] for i in bad[:20]]


def test_the_comparison_sees_one_ulp_and_another_order() -> None:
    cases = R.cases()
    got = [gradcli_result(i, *c) for i, c in enumerate(cases)]
    # one element one ulp off in one case
    i = next(j for j, c in enumerate(cases) if c[0] == "nt" and c[1] == 2)
    off = [g.copy() for g in got]
    off[i][0] = np.nextafter(off[i][0], np.float32(np.inf))
    assert _differing(off) == [i]
    # the small kernel without its peeled row heads: rows at an odd alignment differ
    peeled = gemm_avx2._ALIGN
    try:
        gemm_avx2._ALIGN = 1  # (no element is peeled, and the dot kernel takes one lane)
        wrong = [
            gradcli_result(j, *c) if c[0] in ("nn", "nt") else got[j] for j, c in enumerate(cases)
        ]
    finally:
        gemm_avx2._ALIGN = peeled
    assert len(_differing(wrong)) > 20


def test_the_avx512_family_is_untouched(monkeypatch: pytest.MonkeyPatch) -> None:
    # the same products under the recorded family: its emulation, which differs here
    monkeypatch.setenv("GRADCLI_KERNELS", "avx512")
    got = [gradcli_result(i, *c) for i, c in enumerate(R.cases())]
    assert len(_differing(got)) > len(got) // 3


def test_the_blocks_of_the_inner_size() -> None:
    assert gemm_avx2._k_blocks(192) == [(0, 192)]
    assert gemm_avx2._k_blocks(200) == [(0, 100), (100, 200)]
    assert gemm_avx2._k_blocks(193) == [(0, 96), (96, 192), (192, 193)]
    assert gemm_avx2._k_blocks(385) == [(0, 192), (192, 384), (384, 385)]


def test_layouts_not_measured_are_left_to_the_other_family() -> None:
    x = np.ones((5, 8), np.float32)
    y = np.ones((8, 13), np.float32)
    # both transposed past inner size 7 (test_gemm_avx2_colmajor: up to 7)
    assert gemm_avx2.mm(np.asfortranarray(x), np.asfortranarray(y)) is None
    assert gemm_avx2.mm(x[:, ::2], y[::2]) is None  # strided
    assert gemm_avx2.mm(x.astype(np.float64), y.astype(np.float64)) is None
    assert gemm_avx2.mm(x, y) is not None
    # and the avx512 family never reaches this module's kernels
    assert L._matmul_fwd(x, y).dtype == np.float32


def _torch():
    if cpu._detected() != "avx2":
        pytest.skip("not an avx2-family machine")
    return pytest.importorskip("torch")


def test_live_against_pytorch_on_fresh_inputs() -> None:
    torch = _torch()
    torch.set_num_threads(1)
    import torch.nn.functional as F

    rng = np.random.default_rng()
    for _ in range(40):
        m, k, n = (int(rng.integers(1, 40)), int(rng.integers(1, 300)), int(rng.integers(1, 40)))
        x = rng.standard_normal((m, k)).astype(np.float32)
        w = rng.standard_normal((n, k)).astype(np.float32)
        b = rng.standard_normal(n).astype(np.float32)
        y = rng.standard_normal((k, n)).astype(np.float32)
        tx, tw, tb, ty = (torch.from_numpy(a) for a in (x, w, b, y))
        pairs = [
            (F.linear(tx, tw, tb), linear(Tensor(x), Tensor(w), Tensor(b))),
            (tx @ ty, matmul(Tensor(x), Tensor(y))),
            (tx.t().contiguous().t() @ ty, matmul(Tensor(np.ascontiguousarray(x.T).T), Tensor(y))),
        ]
        for want, got in pairs:
            assert np.array_equal(want.numpy().view(np.uint32), got.data.view(np.uint32)), (m, k, n)
