"""core.orthopoly (torch.special's Chebyshev, Hermite, Laguerre and Legendre polynomials)
against NumPy's own polynomial classes in float64 (an independent evaluation: the power-
series coefficients of each basis polynomial), at degrees 0 to 12 (Chebyshev past 6 / 8 uses
the trigonometric form inside (-1, 1)), plus ATen's conventions: a negative degree is 0,
a fractional degree is truncated, Hermite beyond its limit is NaN. (Bit-for-bit agreement
with PyTorch is corpus program 1755's.)"""

from __future__ import annotations

import numpy as np
from numpy.polynomial import chebyshev, hermite, hermite_e, laguerre, legendre

from gradcli.core import orthopoly as O

X = np.linspace(-1.5, 1.5, 61)


def _u(x: np.ndarray, n: int) -> np.ndarray:
    # U_n as a sum of the first kind's: 2 (T_n + T_(n-2) + ...), T_0 counted once
    out = np.zeros_like(x)
    for k in range(n % 2, n + 1, 2):
        out += (1 if k == 0 else 2) * chebyshev.chebval(x, [0] * k + [1])
    return out


def test_against_numpy_polynomials() -> None:
    cases = {
        "chebyshev_polynomial_t": lambda x, n: chebyshev.chebval(x, [0] * n + [1]),
        "chebyshev_polynomial_u": _u,
        # V_n = U_n - U_(n-1), W_n = U_n + U_(n-1); the shifted ones of 2x - 1
        "chebyshev_polynomial_v": lambda x, n: _u(x, n) - (_u(x, n - 1) if n else 0),
        "chebyshev_polynomial_w": lambda x, n: _u(x, n) + (_u(x, n - 1) if n else 0),
        "shifted_chebyshev_polynomial_t": lambda x, n: chebyshev.chebval(2 * x - 1, [0] * n + [1]),
        "shifted_chebyshev_polynomial_u": lambda x, n: _u(2 * x - 1, n),
        "hermite_polynomial_h": lambda x, n: hermite.hermval(x, [0] * n + [1]),
        "hermite_polynomial_he": lambda x, n: hermite_e.hermeval(x, [0] * n + [1]),
        "laguerre_polynomial_l": lambda x, n: laguerre.lagval(x, [0] * n + [1]),
        "legendre_polynomial_p": lambda x, n: legendre.legval(x, [0] * n + [1]),
    }
    for name, ref in cases.items():
        for n in range(13):
            got = O.compute(name, X, np.full_like(X, n))
            np.testing.assert_allclose(got, ref(X, n), rtol=1e-9, atol=1e-9, err_msg=name)


def test_degree_conventions() -> None:
    x = np.array([0.3, -0.6])
    for name in O.FUNCTIONS:
        assert (O.compute(name, x, np.full(2, -1.0)) == 0).all()
        np.testing.assert_array_equal(
            O.compute(name, x, np.full(2, 3.7)), O.compute(name, x, np.full(2, 3.0))
        )
    assert np.isnan(O.compute("hermite_polynomial_h", x, np.full(2, 513.0))).all()
    assert np.isnan(
        O.compute("hermite_polynomial_he", x.astype(np.float32), np.full(2, 129.0, np.float32))
    ).all()
