"""torch.gradient and the window functions: values PyTorch 2.13 gave (recorded, to the bit),
torch.gradient's backward against central differences, ATen's calc_i0 and the fused
multiply-add it is compiled with, and PyTorch's checks in its words."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.specfun import calc_i0, fma
from gradcli.core.tensor import Tensor
from gradcli.surface import basics as B
from gradcli.surface.statistics import gradient
from tests.helpers import gradcheck as gc

Y = np.array([[0.5, 1.25, 3.0, 2.0, -1.0], [2.0, 0.0, 1.0, 5.0, 4.0]])


def test_gradient_values_are_pytorchs() -> None:
    rows, cols = gradient(Tensor(Y), spacing=[0.5, 2.0])
    assert rows.data.tolist() == [[3.0, -2.5, -4.0, 6.0, 10.0]] * 2
    assert cols.data.tolist() == [
        [0.375, 0.625, 0.1875, -1.0, -1.5],
        [-1.0, -0.25, 1.25, 0.75, -0.5],
    ]
    (second,) = gradient(Tensor(Y), spacing=2.0, dim=1, edge_order=2)
    assert second.data.tolist() == [
        [0.125, 0.625, 0.1875, -1.0, -2.0],
        [-1.75, -0.25, 1.25, 0.75, -1.75],
    ]
    coords = [
        Tensor(np.array([0.0, 2.0], np.float32)),
        Tensor(np.array([0, 0.3, 0.5, 1.2, 2], np.float32)),
    ]
    rows, cols = gradient(Tensor(Y.astype(np.float32)), spacing=coords)
    assert rows.dtype == np.float32
    assert cols.data.tolist() == [
        [2.5, 6.250000476837158, 6.488095760345459, -2.5119049549102783, -3.750000238418579],
        [
            -6.666666507720947,
            0.33333373069763184,
            5.158730506896973,
            2.464285373687744,
            -1.2500001192092896,
        ],
    ]


@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"spacing": 0.3, "edge_order": 2},
        {"spacing": [0.5, 2.0], "dim": [0, 1]},
        {"dim": 1, "edge_order": 2},
        {"spacing": "coords", "edge_order": 1},
        {"spacing": "coords", "edge_order": 2},
    ],
)
def test_gradient_backward_matches_central_differences(kw: dict) -> None:
    y0 = np.random.default_rng(2).standard_normal((4, 5))
    if kw.get("spacing") == "coords":
        kw = {
            **kw,
            "spacing": [
                Tensor(np.array([0.0, 0.4, 1.1, 1.5])),
                Tensor(np.cumsum(np.arange(1.0, 6.0))),
            ],
        }
    w = [np.random.default_rng(10 + i).standard_normal((4, 5)) for i in range(2)]

    def f(xs: list) -> float:
        outs = gradient(Tensor(xs[0]), **kw)
        return float(sum(np.sum(o.data * w[i]) for i, o in enumerate(outs)))

    y = Tensor(y0.copy(), requires_grad=True)
    outs = gradient(y, **kw)
    assert all(o.grad_fn.name() == "CatBackward0" for o in outs)
    sum((o * Tensor(w[i])).sum() for i, o in enumerate(outs)).backward()
    want = gc.numeric_grad(f, [y0], [0], gc.STEP)[0]
    assert gc.rel_error(y.grad.data, want) <= 1e-8


@pytest.mark.parametrize(
    "kw, words",
    [
        ({"spacing": [1.0, 2.0, 3.0]}, "a list of length equal to 'self.dim\\(\\) = 2', since dim"),
        (
            {"spacing": [1.0, 2.0], "dim": 1},
            "spacing argument of length 2 and a dim argument of length 1",
        ),
        ({"edge_order": 3}, "only supports edge_order=1 and edge_order=2"),
        ({"dim": [1, 1]}, "dim 1 appears multiple times in the list of dims"),
        ({"spacing": Tensor(np.ones(5))}, "received an invalid combination of arguments"),
        ({"spacing": [Tensor(np.ones((2, 2)))], "dim": 0}, "got an element with 2 dimensions!"),
    ],
)
def test_gradient_checks_are_pytorchs(kw: dict, words: str) -> None:
    with pytest.raises(GradcliError, match=words):
        gradient(Tensor(Y), **kw)


def test_gradient_of_a_scalar_is_an_empty_tuple_and_edge_order_needs_samples() -> None:
    assert gradient(Tensor(np.array(3.0))) == ()
    with pytest.raises(GradcliError, match="at least edge_order\\+1"):
        gradient(Tensor(np.array([1.0, 2.0])), edge_order=2)


# --- windows ---------------------------------------------------------------------------------


def test_window_values_are_pytorchs_to_the_bit() -> None:
    assert B.kaiser_window(9, True, 7.5, dtype=np.float32).data.tolist() == [
        0.0037290980108082294, 0.07875733077526093, 0.31111940741539, 0.6714658737182617,
        0.957707941532135, 0.957707941532135, 0.6714658737182617, 0.31111940741539,
        0.07875733077526093,
    ]  # fmt: skip
    assert B.kaiser_window(9, False, 7.5, dtype=np.float64).data.tolist() == [
        0.003729098706855622, 0.09808467239842959, 0.3946276132193213, 0.8014138335201753,
        1.0, 0.8014138335201753, 0.3946276132193213, 0.09808467239842959, 0.003729098706855622,
    ]  # fmt: skip
    assert B.blackman_window(7, dtype=np.float32).data.tolist() == [
        -2.9802322387695312e-08, 0.09045341610908508, 0.4591829478740692, 0.9203636646270752,
        0.9203635454177856, 0.4591829776763916, 0.09045332670211792,
    ]  # fmt: skip
    assert B.bartlett_window(7, dtype=np.float32).data.tolist() == [
        0.0, 0.2857142984867096, 0.5714285969734192, 0.8571429252624512, 0.8571428060531616,
        0.5714285373687744, 0.28571414947509766,
    ]  # fmt: skip


@pytest.mark.parametrize(
    "fn", ["hann_window", "hamming_window", "blackman_window", "bartlett_window"]
)
def test_windows_against_their_formulas(fn: str) -> None:
    """Symmetric windows (periodic=False) against the textbook formulas in float64; a
    periodic window of N is the symmetric one of N + 1 without its last sample."""
    n = 11
    k = np.arange(n)
    want = {
        "hann_window": 0.5 - 0.5 * np.cos(2 * np.pi * k / (n - 1)),
        "hamming_window": 0.54 - 0.46 * np.cos(2 * np.pi * k / (n - 1)),
        "blackman_window": 0.42
        - 0.5 * np.cos(2 * np.pi * k / (n - 1))
        + 0.08 * np.cos(4 * np.pi * k / (n - 1)),
        "bartlett_window": 1 - np.abs(2 * k / (n - 1) - 1),
    }[fn]
    got = getattr(B, fn)(n, False, dtype=np.float64).data
    assert np.allclose(got, want, rtol=0, atol=1e-15)
    assert getattr(B, fn)(n - 1, dtype=np.float64).data.tolist() == got[:-1].tolist()


def test_kaiser_window_is_its_formula() -> None:
    n, beta = 12, 6.0
    alpha = (n - 1) / 2
    want = [np.i0(beta * math.sqrt(1 - ((k - alpha) / alpha) ** 2)) / np.i0(beta) for k in range(n)]
    got = B.kaiser_window(n, False, beta, dtype=np.float64).data
    assert np.allclose(got, want, rtol=1e-14, atol=0)


def test_calc_i0_is_atens_cephes_i0() -> None:
    # torch.i0's values (recorded): float64, and the float kernel with float coefficients
    x = np.array([0.0, 1.5, 7.99, 8.0, 8.5, 30.0])
    assert calc_i0(x).tolist() == [
        1.0, 1.6467231897728907, 423.58420367467363, 427.56411572180474, 683.1619269901155,
        781672297823.9775,
    ]  # fmt: skip
    assert calc_i0(x.astype(np.float32)).tolist() == [
        0.9999999403953552, 1.6467232704162598, 423.58416748046875, 427.564208984375,
        683.1619873046875, 781672185856.0,
    ]  # fmt: skip


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fma_rounds_once(dtype) -> None:
    rng = np.random.default_rng(4)
    a, b, c = (
        (rng.standard_normal(2000) * 10.0 ** rng.integers(-5, 5, 2000)).astype(dtype)
        for _ in range(3)
    )
    got = fma(a, b, c)
    assert got.dtype == dtype
    for u, v, w, r in zip(a.tolist(), b.tolist(), c.tolist(), got.tolist(), strict=True):
        exact = Fraction(u) * Fraction(v) + Fraction(w)
        lo, hi = np.nextafter(dtype(r), dtype(-np.inf)), np.nextafter(dtype(r), dtype(np.inf))
        # r is the nearest: its neighbours are no nearer to the exact value
        assert abs(Fraction(float(r)) - exact) <= abs(Fraction(float(lo)) - exact)
        assert abs(Fraction(float(r)) - exact) <= abs(Fraction(float(hi)) - exact)


def test_window_arguments_as_pytorchs() -> None:
    w = B.hann_window(4, requires_grad=True, dtype=np.float32)
    assert w.requires_grad and w.grad_fn is None and w.dtype == np.float32
    assert B.hann_window(0).shape == (0,) and B.kaiser_window(1).data.tolist() == [1.0]
    with pytest.raises(
        GradcliError, match="requires non-negative window_length, got window_length=-1"
    ):
        B.hann_window(-1)
    with pytest.raises(
        GradcliError, match="expects floating point dtypes, got: TensorOptions\\(dtype=long int"
    ):
        B.bartlett_window(3, dtype=np.int64)
    with pytest.raises(
        GradcliError, match="argument 'window_length' \\(position 1\\) must be int, not float"
    ):
        B.blackman_window(4.0)
    with pytest.raises(GradcliError, match="kaiser_window\\(\\) received an invalid combination"):
        B.kaiser_window(6, beta=5.0)  # beta only after periodic, as PyTorch's overloads
    assert (
        B.hamming_window(6, True, alpha=0.5, beta=0.5).data.tolist()
        == B.hann_window(6).data.tolist()
    )
    with pytest.raises(GradcliError, match="over the limit"):
        B.hann_window(10**9)


def test_torch_i0_is_calc_i0() -> None:
    """The i0 record computes ATen's calc_i0 in float32 and float64 (torch.i0's bits)."""
    from gradcli.core.op import apply
    from gradcli.ops.special import i0

    x = np.linspace(-30.0, 30.0, 1201)
    for dt in (np.float32, np.float64):
        got = apply(i0, Tensor(x.astype(dt))).data
        assert got.dtype == dt and got.tobytes() == calc_i0(x.astype(dt)).tobytes()
    assert np.allclose(apply(i0, Tensor(x)).data, np.i0(x), rtol=1e-14, atol=0)
