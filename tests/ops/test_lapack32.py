"""float32 det, slogdet, solve and inv (and the first-order gradients of det, slogdet and
solve's B) are PyTorch's to the bit where `gradcli.ops.lapack32` mirrors MKL's sgetrf / sgetrs
order (n <= 23; solve and inv with several right-hand sides: n <= 13 and n = 16; sgetrs 'T' for
solve's gradient: n <= 8). Recorded with torch 2.13
(tests/ops/data/record_lapack32.py); a live cross-check runs where torch is installed."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.ops import lapack32
from gradcli.ops import matrices as M

DATA = json.loads((Path(__file__).parent / "data" / "lapack32.json").read_text())
CASES = DATA["cases"]


def draw(n: int, count: int, seed: int, cols: int = 0) -> np.ndarray:
    rng = np.random.default_rng([n, count, seed, cols])
    return rng.standard_normal((count, n, cols or n)).astype(np.float32)


def digest(a: np.ndarray) -> str:
    bits = np.ascontiguousarray(np.asarray(a, dtype=np.float32)).view(np.uint32)
    return hashlib.sha256(bits.tobytes()).hexdigest()[:16]


def _solve_measured(n: int, cols: int) -> bool:
    return cols == 1 or n <= 13 or n == 16


def _results(n: int, numpy_only: bool = False) -> dict[str, np.ndarray | None]:
    a, b3, b1 = draw(n, 6, 0), draw(n, 6, 1, 3), draw(n, 6, 2, 1)
    g = draw(1, 6, 3, 1).reshape(6)
    if numpy_only:  # what gradcli computed before: NumPy's LAPACK
        sign, logabs = np.linalg.slogdet(a)
        return {
            "det": np.linalg.det(a),
            "det_t": np.linalg.det(a.transpose(0, 2, 1)),
            "slogdet": np.stack([sign, logabs], -1),
            "inv": np.linalg.inv(a),
            "solve3": np.linalg.solve(a, b3),
            "solve1": np.linalg.solve(a, b1),
        }
    det = M._det_fwd(a)
    return {
        "det": det,
        "det_t": M._det_fwd(a.transpose(0, 2, 1)),
        "slogdet": M._slogdet_fwd(a),
        "inv": M._inv_fwd(a) if _solve_measured(n, n) else None,
        "solve3": M._solve_fwd(a, b3) if _solve_measured(n, 3) else None,
        "solve1": M._solve_fwd(a, b1),
        "det_grad": lapack32.det_grad(a, det * g, g) if _solve_measured(n, n) else None,
        "slogdet_grad": lapack32.det_grad(a, g) if _solve_measured(n, n) else None,
        "solve_grad_b": lapack32.solve_grad_b(a, draw(n, 6, 5, 3)) if n <= 8 else None,
    }


@pytest.mark.parametrize("n", range(1, 24))
def test_matches_pytorch_bits(n: int) -> None:
    for name, value in _results(n).items():
        if value is None:
            continue
        assert digest(value) == CASES[f"{name} {n}"], f"{name} of {n} x {n} matrices"


def test_the_records_tell_numpy_apart() -> None:
    # NumPy's LAPACK (the path before) misses most of the records: the test can fail.
    missed = 0
    for n in range(3, 17):
        for name, value in _results(n, numpy_only=True).items():
            missed += digest(value.astype(np.float32)) != CASES[f"{name} {n}"]
    assert missed >= 60


def test_small_sizes_bit_for_bit() -> None:
    bits = DATA["bits"]
    for n in (2, 3):
        a = draw(n, 2, 4)
        assert M._det_fwd(a).view(np.uint32).tolist() == bits[f"det {n}"]
        assert M._inv_fwd(a).view(np.uint32).reshape(-1).tolist() == bits[f"inv {n}"]


def test_singular_matrices() -> None:
    a = np.array([[[1.0, 2.0], [2.0, 4.0]], [[0.0, 1.0], [0.0, 3.0]]], dtype=np.float32)
    assert M._det_fwd(a).view(np.uint32).tolist() == DATA["bits"]["det singular"]
    sign, logabs = DATA["bits"]["slogdet singular"]
    out = M._slogdet_fwd(a)
    assert out[:, 0].tolist() == sign and np.signbit(out[:, 0]).all()
    assert out[:, 1].tolist() == logabs
    # a zero pivot leaves solve and inv to the path that reports the singular matrix
    assert lapack32.solve(a, np.ones((2, 2, 1), np.float32)) is None


def test_not_measured_falls_back() -> None:
    a = draw(24, 2, 0)
    assert lapack32.det(a) is None and lapack32.inv(a) is None
    assert lapack32.inv(draw(20, 2, 0)) is None  # factored, but not solved with 20 columns
    assert lapack32.det(a.astype(np.float64)) is None
    assert lapack32.solve(draw(14, 2, 0), draw(14, 2, 1, 3)) is None
    nan = draw(3, 1, 0)
    nan[0, 1, 1] = np.nan
    assert lapack32.det(nan) is None
    # broadcast batch axes
    x = M._solve_fwd(draw(4, 1, 0)[0], draw(4, 3, 1, 2))
    assert x.shape == (3, 4, 2)


def test_solve_left_false_is_the_transposed_solve_of_a() -> None:
    # X A = B: ATen solves A^T X^T = B^T with A's own LU, transposed (sgetrs 'T'), which
    # rounds otherwise than factoring A^T
    a, bt = draw(5, 6, 0), draw(5, 6, 5, 3)
    at = a.transpose(0, 2, 1)
    x = M._solve_fwd(at, bt, adjoint=True)
    assert np.array_equal(x, lapack32.solve_grad_b(a, bt))
    assert not np.array_equal(x, M._solve_fwd(at, bt))


def test_live_against_torch() -> None:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    rng = np.random.default_rng(2026)
    for n in (2, 3, 5, 8, 11, 13, 15, 16, 19):
        a = rng.standard_normal((200, n, n)).astype(np.float32)
        if n <= 8:
            ta = torch.from_numpy(a).requires_grad_(True)
            tb = torch.from_numpy(rng.standard_normal((200, n, 2)).astype(np.float32))
            tb.requires_grad_(True)
            g = rng.standard_normal((200, n, 2)).astype(np.float32)
            torch.linalg.solve(ta, tb).backward(torch.from_numpy(g))
            assert np.array_equal(lapack32.solve_grad_b(a, g), tb.grad.numpy())
            x = torch.linalg.solve(torch.from_numpy(a), torch.from_numpy(g).mT, left=False)
            assert np.array_equal(lapack32.solve_grad_b(a, g), x.mT.numpy())
        b = rng.standard_normal((200, n, 1 if n in (15, 19) else 2)).astype(np.float32)
        ta, tb = torch.from_numpy(a), torch.from_numpy(b)
        assert np.array_equal(M._det_fwd(a), torch.linalg.det(ta).numpy())
        assert np.array_equal(M._solve_fwd(a, b), torch.linalg.solve(ta, tb).numpy())
        if n not in (15, 19):
            assert np.array_equal(M._inv_fwd(a), torch.linalg.inv(ta).numpy())
