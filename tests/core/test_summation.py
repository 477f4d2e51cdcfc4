"""Float sums (`core.summation`) and float32 matrix products (`ops.linalg`) in PyTorch's order:
compared bit for bit with what PyTorch 2.13 (one thread) computed for the same inputs, recorded
in `data/summation_expected.npz` (regenerate with `python -m tests.core.test_summation` under
torch; where torch is installed, the recording is checked live too).

The inputs are drawn by NumPy from fixed seeds, with magnitudes spread over six decades so that
the order of the additions shows in the last bits (a sum of 200 such float32 numbers added in
NumPy's pairwise order differs from PyTorch's in most cases)."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np
import pytest

from gradcli.core.summation import sum_float
from gradcli.ops.linalg import _matmul_fwd

DATA = Path(__file__).resolve().parent / "data" / "summation_expected.npz"

SHAPES = [(5,), (8,), (17,), (200,), (1000,), (4097,), (40000,), (3, 4), (8, 5), (7, 33), (33, 7)]
SHAPES += [(64, 70), (2, 3, 4), (4, 9, 10), (3, 40, 5), (2, 3, 4, 5), (1, 20), (3, 1, 9)]
PRODUCTS = [(8, 4, 5), (5, 8, 2), (16, 16, 16), (10, 30, 10), (7, 100, 9), (4, 300, 4)]
PRODUCTS += [(3, 451, 5), (6, 700, 7), (64, 64, 64)]


def _values(shape: tuple[int, ...], dtype: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    scale = 10.0 ** rng.integers(-3, 3, size=shape)
    return (rng.standard_normal(shape) * scale).astype(dtype)


def _views(a: np.ndarray) -> list[tuple[str, np.ndarray]]:
    out = [("c", a)]
    if a.ndim >= 2:
        out.append(("t", a.swapaxes(0, -1)))
        out.append(("s", a[:, ::2]))
    return out


def _sum_cases() -> list[tuple[str, np.ndarray, tuple[int, ...]]]:
    cases = []
    for dtype in ("float32", "float64"):
        for i, shape in enumerate(SHAPES):
            for name, v in _views(_values(shape, dtype, i)):
                nd = v.ndim
                dimsets = [
                    tuple(c) for r in range(1, nd + 1) for c in itertools.combinations(range(nd), r)
                ]
                for dims in dimsets:
                    key = f"{dtype}-{'x'.join(map(str, shape))}-{name}-{'.'.join(map(str, dims))}"
                    cases.append((key, v, dims))
    return cases


def _product_cases() -> list[tuple[str, np.ndarray, np.ndarray]]:
    cases = []
    for i, (m, k, n) in enumerate(PRODUCTS):
        a, b = _values((m, k), "float32", 100 + i), _values((k, n), "float32", 200 + i)
        cases.append((f"mm-{m}x{k}x{n}", a, b))
        cases.append((f"mm-{m}x{k}x{n}-at", np.ascontiguousarray(a.T).T, b))
    return cases


@pytest.fixture(scope="module")
def expected() -> dict[str, np.ndarray]:
    with np.load(DATA) as data:
        return dict(data)


def test_sums_are_pytorchs_bits(expected: dict[str, np.ndarray]) -> None:
    cases = _sum_cases()
    assert len(cases) > 300
    wrong = []
    for key, v, dims in cases:
        got = sum_float(v, dims, False)
        want = expected[key]
        if got.shape != want.shape or got.tobytes() != want.tobytes():
            wrong.append(key)
    assert not wrong, wrong[:10]


def test_numpy_order_would_differ(expected: dict[str, np.ndarray]) -> None:
    # The recording is sensitive: NumPy's own (pairwise) order misses many of these sums.
    misses = sum(
        np.sum(v, axis=dims).tobytes() != expected[key].tobytes()
        for key, v, dims in _sum_cases()
        if v.dtype == np.float32
    )
    assert misses > 50


def test_products_are_pytorchs_bits(expected: dict[str, np.ndarray]) -> None:
    for key, a, b in _product_cases():
        assert _matmul_fwd(a, b).tobytes() == expected[key].tobytes(), key


def test_sum_details() -> None:
    # A sum is never -0.0 (the kernel starts from +0.0), an empty sum is 0, integers are exact.
    z = np.array([-0.0, -0.0], np.float32)
    assert np.signbit(sum_float(z, (0,), False)) == np.False_
    assert sum_float(np.zeros((0, 3), np.float32), (0,), False).tolist() == [0.0, 0.0, 0.0]
    ints = np.arange(10, dtype=np.int64).reshape(2, 5)
    assert sum_float(ints, (1,), True).tolist() == [[10], [35]]
    assert sum_float(np.float32(2.5) * np.ones((), np.float32), (), False) == np.float32(2.5)
    # keepdim and the dims of several axes.
    x = _values((3, 4, 5), "float32", 7)
    assert sum_float(x, (0, 2), True).shape == (1, 4, 1)
    assert sum_float(x, (0, 2), False).shape == (4,)


def test_recording_is_pytorchs() -> None:
    pytest.importorskip("torch")
    recorded = _record()
    with np.load(DATA) as data:
        assert set(recorded) == set(data.files)
        for key, value in recorded.items():
            assert value.tobytes() == data[key].tobytes(), key


def _record() -> dict[str, np.ndarray]:
    import torch

    torch.set_num_threads(1)
    out = {}
    for key, v, dims in _sum_cases():
        out[key] = _torch_sum(torch, v, dims)
    for key, a, b in _product_cases():
        out[key] = (_torch_view(torch, a) @ _torch_view(torch, b)).numpy()
    return out


def _torch_view(torch, a: np.ndarray):  # noqa: ANN001, ANN202 - torch is optional
    """The same values with the same strides as a torch tensor."""
    base = np.ascontiguousarray(a.reshape(-1) if a.flags.c_contiguous else a.T.reshape(-1))
    t = torch.from_numpy(base.copy())
    if a.flags.c_contiguous:
        return t.reshape(a.shape)
    return t.reshape(a.shape[::-1]).T


def _torch_sum(torch, v: np.ndarray, dims: tuple[int, ...]):  # noqa: ANN001, ANN202
    # The view's strides as PyTorch's (in elements), over a copy of its base array.
    base = v.base if v.base is not None else v
    while base.base is not None:
        base = base.base
    start = (v.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // v.itemsize
    t = torch.from_numpy(np.ascontiguousarray(base).reshape(-1).copy())
    t = t.as_strided(v.shape, tuple(s // v.itemsize for s in v.strides), start)
    return t.sum(dim=dims).numpy()


if __name__ == "__main__":  # record: python -m tests.core.test_summation
    np.savez_compressed(DATA, **_record())
    print("recorded", DATA, file=sys.stderr)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_small_sums_one_item_at_a_time_are_the_numpy_codes(dtype: type) -> None:
    """The full sums of small tensors added on Python floats (`_small_total`) are the NumPy
    code's bits, the output's `+ 0` included: every size up to past the threshold and the
    cascade's first runs, normal values, values of far apart magnitudes, signed zeros,
    infinities and overflows (float32 on NumPy scalars, which the path does not take)."""
    from gradcli.core import summation as S

    rng = np.random.default_rng(11)
    sizes = list(range(1, 2 * S._SMALL + 3)) + [511, 512, 1031]
    with np.errstate(all="ignore"):
        for n in sizes:
            for kind in range(3):
                x = rng.standard_normal(n)
                if kind == 1:
                    x *= 10.0 ** rng.integers(-30, 30, n)
                elif kind == 2:
                    x[rng.integers(0, n, 3)] = rng.choice([-0.0, np.inf, -np.inf, 1e308, -1e308], 3)
                x = x.astype(dtype)
                lanes = S._VECTOR_BYTES // x.itemsize
                flat = x.reshape(-1, 1)
                want = S._vectorized_inner(flat, lanes) if n >= lanes else S._row_sum(flat)
                want = want[0] + x.dtype.type(0)
                got = S._small_total(x, lanes) + x.dtype.type(0)
                assert np.asarray(got, dtype).tobytes() == np.asarray(want, dtype).tobytes(), n
                if dtype == np.float64:
                    for shape in [(n,), (1, n)]:
                        full = sum_float(x.reshape(shape), tuple(range(len(shape))), False)
                        assert full.dtype == x.dtype and full.shape == ()
                        assert full.tobytes() == np.asarray(want, dtype).tobytes()
    assert np.signbit(sum_float(np.array([-0.0, -0.0]), (0,), False)) == np.signbit(
        np.float64(-0.0) + 0.0
    )


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_runs_added_in_order_are_the_general_codes(dtype: type) -> None:
    """`_runs_in_order` (NumPy's reduction along the runs' axis, or the moved blocks for runs
    of fewer lanes) adds each run's rows in order: `_in_order`'s bits, signed zeros (a run of
    -0.0 sums to -0.0), infinities, nan and overflows included, for the lanes of a float32 and
    a float64 sum and narrower ones, runs of 16 and more rows, one run and many blocks."""
    from gradcli.core import summation as S

    rng = np.random.default_rng(5)
    with np.errstate(all="ignore"):
        for chunks, step, lanes in [
            (3, 16, (16,)),
            (300, 16, (4, 4)),
            (257, 32, (32,)),
            (520, 16, (8, 4)),
            (40, 64, (2,)),
            (70, 16, (1,)),
            (5, 16, (3, 1)),
        ]:
            shape = (chunks, step, *lanes)
            x = rng.standard_normal(shape) * 10.0 ** rng.integers(-30, 30, shape)
            flat = x.reshape(-1)
            for v in (-0.0, np.inf, -np.inf, np.nan, 1e308, -1e308):
                flat[rng.integers(0, flat.size, 3)] = v
            x[0] = -0.0  # a run of negative zeros
            if x.shape[0] > 1:
                x[1, :, 0] = 0.0
                x[1, 0, 0] = -0.0
            x = x.astype(dtype)
            got = S._runs_in_order(x)
            want = S._in_order(np.moveaxis(x, 1, 0))
            assert got.dtype == want.dtype and got.shape == want.shape
            assert got.tobytes() == want.tobytes(), shape
            assert np.signbit(got[0]).all()
