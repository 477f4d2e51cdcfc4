"""torch.special.i0e / i1 / i1e: ATen's Cephes series in the tensor's own dtype, and the
gradients of i1 / i1e as PyTorch's i1_backward / i1e_backward arrange them.

PyTorch's float32 i1 is a few ulps from the precise value (its float series keeps 17 and 7
terms), e.g. i1(-4.797246) = -20.2017536 where the precise float is -20.2017460; gradcli
printed the precise value. The expected values below were recorded with torch 2.13 (CPU)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.core.autograd import grad
from gradcli.core.op import apply
from gradcli.core.specfun import bessel_i, calc_bessel_i
from gradcli.core.tensor import Tensor
from gradcli.ops import special as S

X = [-30.0, -4.797245979309082, -1.5, 0.0, 1e-9, 0.75, 7.99, 8.0, 8.5, 12.25, 80.0]

RECORDED = {
    ("float32", "i0e"): [
        0.07314594089984894, 0.1876438409090042, 0.3674336373806, 0.9999999403953552,
        0.9999999403953552, 0.5411652326583862, 0.14352478086948395, 0.14343181252479553,
        0.13900184631347656, 0.11520523577928543, 0.04467329382896423,
    ],
    ("float32", "i1"): [
        -768532021248.0, -20.201753616333008, -0.9816664457321167, 0.0, 4.999999858590343e-10,
        0.40199247002601624, 396.11529541015625, 399.87353515625, 641.6199340820312,
        23071.109375, 2.459659659721014e33,
    ],
    ("float32", "i1e"): [
        -0.07191632688045502, -0.16671380400657654, -0.2190394103527069, 0.0,
        4.999999858590343e-10, 0.18988779187202454, 0.13421739637851715, 0.13414262235164642,
        0.130549356341362, 0.11039797216653824, 0.04439320042729378,
    ],
    ("float64", "i0e"): [
        0.0731459464822373, 0.18764381907323197, 0.36743360905415834, 1.0, 0.9999999989999999,
        0.5411652192034953, 0.14352476537933484, 0.1434317818568503, 0.13900184305484758,
        0.11520524238907617, 0.04467329178227527,
    ],
    ("float64", "i1"): [
        -768532038938.9569, -20.201745897870413, -0.9816664285779075, 0.0, 5e-10,
        0.4019924615809222, 396.11522620740124, 399.8731367825599, 641.6199025400667,
        23071.11043117882, 2.4596595795675403e33,
    ],
    ("float64", "i1e"): [
        -0.07191633059864755, -0.16671376018195588, -0.21903938742092566, 0.0,
        4.999999995e-10, 0.189887793304855, 0.13421733957828097, 0.13414249329269812,
        0.13054935509459586, 0.11039797177996276, 0.04439320005809746,
    ],
}  # fmt: skip

RECORDED_GRAD = {
    ("float32", "i1"): [
        756054425600.0, 18.526859283447266, 0.9922789335250854, 0.5, 0.5, 0.609656810760498,
        374.0077819824219, 377.58001708984375, 607.6773071289062, 22192.3828125,
        2.444432533010289e33,
    ],
    ("float32", "i1e"): [
        -0.001167595386505127, -0.01382194459438324, 0.002367943525314331, 0.5, 0.5,
        0.09809368848800659, -0.007490783929824829, -0.007478639483451843,
        -0.006906256079673767, -0.004204809665679932, -0.0002748221158981323,
    ],
    ("float64", "i1"): [
        756054563192.679, 18.52685844083695, 0.9922789040542856, 0.5, 0.5, 0.6096568292694382,
        374.0078299315696, 377.57997362398476, 607.6772325736371, 22192.384085451213,
        2.4444326595895757e33,
    ],
    ("float64", "i1e"): [
        -0.0011675951363651765, -0.01382191357396878, 0.002367963352615632, 0.5,
        0.49999999900000003, 0.09809370149216695, -0.0074907393526734145,
        -0.007478523097435075, -0.00690625969793604, -0.004204808719863146,
        -0.00027482327654840266,
    ],
}  # fmt: skip

_OP = {"i0e": S.i0e, "i1": S.i1, "i1e": S.i1e}


def _ones(x: Tensor) -> Tensor:
    return Tensor(np.ones_like(x.data))


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_values_are_pytorchs_bits(key: tuple[str, str]) -> None:
    dt, name = key
    got = apply(_OP[name], Tensor(np.asarray(X, dtype=dt))).data
    assert got.dtype == np.dtype(dt)
    assert got.tolist() == RECORDED[key]


@pytest.mark.parametrize("key", sorted(RECORDED_GRAD))
def test_gradients_are_pytorchs_bits(key: tuple[str, str]) -> None:
    dt, name = key
    x = Tensor(np.asarray(X, dtype=dt), requires_grad=True)
    (gx,) = grad(apply(_OP[name], x), [x], _ones(x))
    assert gx.data.tolist() == RECORDED_GRAD[key]


def test_float32_i1_is_not_the_rounded_precise_value() -> None:
    # the case that was printed wrongly: PyTorch's float series, not the precise value
    x = np.asarray([-4.797245979309082], np.float32)
    precise = bessel_i(x.astype(np.float64), 1, False).astype(np.float32)
    assert calc_bessel_i(x, 1, False)[0] != precise[0]
    assert abs(float(calc_bessel_i(x, 1, False)[0]) - float(precise[0])) < 1e-5


@pytest.mark.parametrize("name", ["i0e", "i1", "i1e"])
def test_float64_series_is_the_function(name: str) -> None:
    x = np.linspace(-40.0, 40.0, 801)
    order, scaled = {"i0e": (0, True), "i1": (1, False), "i1e": (1, True)}[name]
    assert np.allclose(calc_bessel_i(x, order, scaled), bessel_i(x, order, scaled), rtol=1e-14)


@pytest.mark.parametrize("name", ["i1", "i1e"])
def test_gradients_match_central_differences(name: str) -> None:
    x0 = np.asarray([-9.0, -2.5, -0.3, 0.4, 3.0, 8.0, 11.0])
    x = Tensor(x0.copy(), requires_grad=True)
    (gx,) = grad(apply(_OP[name], x), [x], _ones(x))
    h = 1e-6
    order, scaled = (1, name == "i1e")
    fd = (bessel_i(x0 + h, order, scaled) - bessel_i(x0 - h, order, scaled)) / (2 * h)
    assert np.allclose(gx.data, fd, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("name", ["i1", "i1e"])
def test_second_derivative_matches_central_differences(name: str) -> None:
    x0 = np.asarray([-2.5, 0.4, 3.0, 9.5])
    x = Tensor(x0.copy(), requires_grad=True)
    (gx,) = grad(apply(_OP[name], x), [x], _ones(x), create_graph=True)
    (gxx,) = grad(gx, [x], _ones(x))
    h = 1e-4
    order, scaled = (1, name == "i1e")
    f = lambda v: bessel_i(v, order, scaled)  # noqa: E731
    fd = (f(x0 + h) - 2 * f(x0) + f(x0 - h)) / h**2
    assert np.allclose(gxx.data, fd, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("name", ["i1", "i1e"])
def test_half_gradient_is_refused_as_pytorch(name: str) -> None:
    # ATen's i1_backward / i1e_backward are dispatched for float and double only
    from gradcli.base.errors import GradcliError

    x = Tensor(np.asarray([1.0, 2.0], np.float16), requires_grad=True)
    with pytest.raises(GradcliError, match=f"\"{name}_backward\" not implemented for 'Half'"):
        grad(apply(_OP[name], x), [x], _ones(x))
