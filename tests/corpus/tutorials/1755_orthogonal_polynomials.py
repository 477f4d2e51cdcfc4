# Orthogonal polynomials from torch.special: evaluate the first few of each family on a
# grid, use Chebyshev polynomials as features of a least-squares fit, and check the
# Legendre polynomials' orthogonality numerically.
import math
import torch

S = torch.special
x = torch.linspace(-1, 1, 7, dtype=torch.float64)
for name in (
    "chebyshev_polynomial_t",
    "chebyshev_polynomial_u",
    "chebyshev_polynomial_v",
    "chebyshev_polynomial_w",
    "shifted_chebyshev_polynomial_t",
    "shifted_chebyshev_polynomial_u",
    "shifted_chebyshev_polynomial_v",
    "shifted_chebyshev_polynomial_w",
    "hermite_polynomial_h",
    "hermite_polynomial_he",
    "laguerre_polynomial_l",
    "legendre_polynomial_p",
):
    fn = getattr(S, name)
    print(name, fn(x, 4).tolist())
    print("   degree 9, float32:", fn(x.float() * 0.9, 9).tolist())

# degrees as a tensor broadcast against the points: a Vandermonde-like matrix
degrees = torch.arange(5).unsqueeze(1)
print(S.chebyshev_polynomial_t(x, degrees))

# least squares in the Chebyshev basis (exp on [-1, 1])
t = torch.linspace(-1, 1, 50, dtype=torch.float64)
features = S.chebyshev_polynomial_t(t.unsqueeze(1), torch.arange(6))
coef = torch.linalg.lstsq(features, torch.exp(t).unsqueeze(1)).solution
print("coefficients:", [round(c, 8) for c in coef.squeeze(1).tolist()])
print(f"max error: {(features @ coef - torch.exp(t).unsqueeze(1)).abs().max().item():.3e}")

# Legendre orthogonality: integral of P_m P_n over [-1, 1] is 2 / (2n + 1) when m == n
grid = torch.linspace(-1, 1, 4001, dtype=torch.float64)
for m, n in ((2, 2), (2, 3), (4, 4)):
    prod = S.legendre_polynomial_p(grid, m) * S.legendre_polynomial_p(grid, n)
    print(
        m,
        n,
        round(torch.trapezoid(prod, grid).item(), 6),
        round(2 / (2 * n + 1), 6) if m == n else 0.0,
    )

# negative degrees give 0, fractional ones are truncated, numbers work on either side
print(
    S.legendre_polynomial_p(torch.tensor([0.5]), -2),
    S.legendre_polynomial_p(0.5, torch.tensor([2.9])),
)
print(S.hermite_polynomial_h(torch.tensor([1.0, 2.0], requires_grad=True), 3))
try:
    S.laguerre_polynomial_l(0.5, 2)
except TypeError as e:
    print("TypeError:", str(e).splitlines()[0])
