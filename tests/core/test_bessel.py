"""core.bessel (torch.special's bessel_j0/j1/y0/y1, spherical_bessel_j0) against the
functions' own identities in float64: J0' = -J1 and Y0' = -Y1 by central finite differences,
the Wronskian J1 Y0 - J0 Y1 = 2 / (pi x), j0(x) = sin(x) / x; float32 within a few ulp of
float64's values. PyTorch's rational approximations are good to about 4e-7 (absolute) in
float64, hence the tolerances; bit-for-bit agreement with PyTorch is corpus program 1753's."""

from __future__ import annotations

import numpy as np

from gradcli.core import bessel as B

X = np.concatenate([np.linspace(0.05, 4.95, 50), np.linspace(5.05, 40.0, 60)])


def test_derivatives_by_central_differences() -> None:
    h = 1e-6
    for f, df in ((B.bessel_j0, B.bessel_j1), (B.bessel_y0, B.bessel_y1)):
        slope = (f(X + h) - f(X - h)) / (2 * h)
        np.testing.assert_allclose(slope, -df(X), atol=3e-6)


def test_wronskian_and_spherical() -> None:
    w = B.bessel_j1(X) * B.bessel_y0(X) - B.bessel_j0(X) * B.bessel_y1(X)
    np.testing.assert_allclose(w, 2 / (np.pi * X), atol=1e-6)
    np.testing.assert_allclose(B.spherical_bessel_j0(X), np.sin(X) / X, rtol=1e-14, atol=1e-16)
    assert (B.bessel_j1(-X) == -B.bessel_j1(X)).all() and (B.bessel_j0(-X) == B.bessel_j0(X)).all()
    assert np.isnan(B.bessel_y0(-X)).all() and B.bessel_y1(np.zeros(1))[0] == -np.inf


def test_float32_follows_float64() -> None:
    x32 = X.astype(np.float32)
    for f in (B.bessel_j0, B.bessel_j1, B.bessel_y0, B.bessel_y1, B.spherical_bessel_j0):
        got = f(x32)
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, f(x32.astype(np.float64)), rtol=2e-6, atol=2e-6)


def test_modified_functions_by_their_identities() -> None:
    x = np.concatenate([np.linspace(0.05, 1.95, 20), np.linspace(2.05, 7.95, 20), [9.0, 15.0]])
    h = 1e-6
    i0, i1, k0, k1 = (
        B.modified_bessel_i0(x),
        B.modified_bessel_i1(x),
        B.modified_bessel_k0(x),
        B.modified_bessel_k1(x),
    )
    slope_i0 = (B.modified_bessel_i0(x + h) - B.modified_bessel_i0(x - h)) / (2 * h)
    slope_k0 = (B.modified_bessel_k0(x + h) - B.modified_bessel_k0(x - h)) / (2 * h)
    np.testing.assert_allclose(slope_i0, i1, rtol=1e-7)
    np.testing.assert_allclose(slope_k0, -k1, rtol=1e-7)
    np.testing.assert_allclose(i0 * k1 + i1 * k0, 1 / x, rtol=1e-13)  # the Wronskian
    np.testing.assert_allclose(B.scaled_modified_bessel_k0(x), np.exp(x) * k0, rtol=1e-13)
    np.testing.assert_allclose(B.scaled_modified_bessel_k1(x), np.exp(x) * k1, rtol=1e-13)
    assert (B.modified_bessel_i1(-x) == -i1).all() and (B.modified_bessel_i0(-x) == i0).all()
    assert (
        np.isnan(B.modified_bessel_k0(-x)).all() and B.modified_bessel_k1(np.zeros(1))[0] == np.inf
    )


def test_airy_ai_solves_airys_equation() -> None:
    # Ai'' = x Ai, by second central differences, across the three forms (+-2.09 switch);
    # h = 1e-2 (PyTorch's rational forms are good to ~1e-11: a smaller step magnifies that)
    x = np.concatenate([np.linspace(-8, -2.2, 30), np.linspace(-2.0, 2.0, 30), [3.0, 6.0]])
    h = 1e-2
    second = (B.airy_ai(x + h) - 2 * B.airy_ai(x) + B.airy_ai(x - h)) / h**2
    np.testing.assert_allclose(second, x * B.airy_ai(x), atol=3e-4)
    np.testing.assert_allclose(B.airy_ai(np.zeros(1)), [0.3550280538878172], rtol=1e-15)
    assert B.airy_ai(np.array([200.0]))[0] == 0 and np.isnan(B.airy_ai(np.array([np.inf])))[0]
