"""Float64 matrix products of the avx2 kernel family (`ops.gemm_avx2.mm64`, MKL's dgemm on an
AVX2 processor): PyTorch 2.13's bits on an AMD EPYC, one thread (`data/gemm64_avx2_record.py`,
inputs made by arithmetic, only the results recorded) against gradcli's `matmul` under
GRADCLI_KERNELS=avx2, every element bit for bit; and a live check against PyTorch where this
machine is of the family."""

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

DATA = Path(__file__).resolve().parent / "data"
sys.path.insert(0, str(DATA))
import gemm64_avx2_record as R  # noqa: E402

sys.path.remove(str(DATA))


@pytest.fixture(autouse=True)
def _avx2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_KERNELS", "avx2")


def _operands(i: int, kind: str, m: int, k: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    x, y = R.inputs(i, m, k, n)
    return (np.asfortranarray(x) if kind == "tn" else x), (
        np.asfortranarray(y) if kind in ("nt", "lin") else y
    )


def _recorded() -> list[np.ndarray]:
    data = np.load(DATA / "gemm64_avx2.npz")
    bits, out, start = data["bits"], [], 0
    for n in data["lengths"]:
        out.append(bits[start : start + int(n)])
        start += int(n)
    return out


def test_every_recorded_float64_product_is_pytorchs_on_avx2() -> None:
    want = _recorded()
    assert len(want) == len(R.cases())
    bad = []
    for i, (kind, m, k, n) in enumerate(R.cases()):
        x, y = _operands(i, kind, m, k, n)
        if kind == "lin":
            r = linear(Tensor(x), Tensor(np.ascontiguousarray(y.T)), Tensor(R.bias(i, n)))
        else:
            r = matmul(Tensor(x), Tensor(y))
        got = np.asarray(r.data, np.float64).reshape(-1)
        if not np.array_equal(got.view(np.uint64), want[i]):
            bad.append((kind, m, k, n))
    assert bad == []


def test_the_records_tell_the_kernels_apart() -> None:
    # the avx512 family's order (one chain for every element) and the small kernel without its
    # peeled elements each differ from the records somewhere: the test above can fail
    want = _recorded()
    chain_off = peel_off = 0
    for i, (kind, m, k, n) in enumerate(R.cases()):
        x, y = _operands(i, kind, m, k, n)
        if kind in ("nt", "lin") or gemm_avx2.mm64(x, y) is None:
            continue
        chain = L._fma64_chain(x, y).reshape(-1)
        chain_off += not np.array_equal(chain.view(np.uint64), want[i])
        plain = np.zeros((m, n))
        for j in range(k):
            plain += x[:, j, None] * y[j]
        nc = n - n % 12 if m >= 4 else 0
        if nc:
            plain[:, :nc] = L._fma64_chain(x, y[:, :nc])
        peel_off += not np.array_equal(plain.reshape(-1).view(np.uint64), want[i])
    assert chain_off > 50 and peel_off > 5


def test_the_dot_kernel_records_tell_its_splits_apart() -> None:
    # x @ w.t(): the rounded products added in order (no lanes) differ from the records
    want = _recorded()
    off = 0
    for i, (kind, m, k, n) in enumerate(R.cases()):
        if kind != "nt" or k < 8:
            continue
        x, y = _operands(i, kind, m, k, n)
        plain = np.zeros((m, n))
        for j in range(k):
            plain += x[:, j, None] * y[j]
        off += not np.array_equal(plain.reshape(-1).view(np.uint64), want[i])
    assert off > 10


def test_past_the_measured_sizes_the_model_declines() -> None:
    x, y = R.inputs(0, 5, 1025, 24)
    assert gemm_avx2.mm64(x, y) is None
    x, y = R.inputs(0, 6, 300, 3)  # a peeled element (row 1) past 256 inner
    assert gemm_avx2.mm64(x, y) is None
    x, y = R.inputs(0, 5, 300, 24)  # no peeled element: the chains and small kernel hold
    assert gemm_avx2.mm64(x, y) is not None
    x, y = R.inputs(0, 8, 201, 14)  # x @ w.t(): the chain rows' last columns past 200
    assert gemm_avx2.mm64(x, np.asfortranarray(y)) is None
    x, y = R.inputs(0, 5, 30, 14)  # a last row beside the chains: modelled (`_pairs64`,
    assert gemm_avx2.mm64(x, np.asfortranarray(y)) is not None  # test_gemm_scaled.py)


def test_live_against_pytorch_here() -> None:
    torch = pytest.importorskip("torch")
    if cpu._detected() != "avx2":
        pytest.skip("this machine's PyTorch is not of the avx2 family")
    torch.set_num_threads(1)
    rng = np.random.default_rng()
    for _ in range(30):
        m, k, n = int(rng.integers(2, 20)), int(rng.integers(1, 250)), int(rng.integers(2, 40))
        x, y = rng.standard_normal((m, k)), rng.standard_normal((k, n))
        w = rng.standard_normal((n, k))
        want = (torch.from_numpy(x) @ torch.from_numpy(y)).numpy()
        got = np.asarray(matmul(Tensor(x), Tensor(y)).data)
        assert np.array_equal(got.view(np.uint64), want.view(np.uint64)), (m, k, n)
        if gemm_avx2.models64(x, w.T):
            want = (torch.from_numpy(x) @ torch.from_numpy(w).t()).numpy()
            got = np.asarray(matmul(Tensor(x), Tensor(w.T)).data)
            assert np.array_equal(got.view(np.uint64), want.view(np.uint64)), (m, k, n)
