# Fitting a cubic to noisy samples with a Vandermonde matrix: torch.linalg.vander gives the
# powers 1, x, x^2, x^3 as columns (ascending, unlike numpy.vander), so the fit is one least
# squares solve, or a few steps of gradient descent on the coefficients.
import torch

torch.manual_seed(0)
x = torch.linspace(-1, 1, 9, dtype=torch.float64)
y = 0.5 - x + 2 * x**3 + 0.01 * torch.randn(9, dtype=torch.float64)

V = torch.linalg.vander(x, N=4)
print(V.shape, V.dtype)
print(V[:3])
coef = torch.linalg.lstsq(V, y.unsqueeze(-1)).solution.squeeze(-1)
print("least squares:", [round(c, 4) for c in coef.tolist()])

w = torch.zeros(4, dtype=torch.float64, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.3)
for step in range(200):
    opt.zero_grad()
    loss = ((V @ w - y) ** 2).mean()
    loss.backward()
    opt.step()
print("descent:", [round(c, 4) for c in w.tolist()], round(loss.item(), 6))

# The gradient flows into the sample points too (CatBackward0 over CumprodBackward0)
pts = torch.tensor([[0.5, -1.0, 2.0], [0.0, 3.0, -0.25]], dtype=torch.float64, requires_grad=True)
M = torch.linalg.vander(pts)
print(M.grad_fn.name(), M.shape)
(M * torch.arange(3.0, dtype=torch.float64)).sum().backward()
print(pts.grad)
print(torch.autograd.gradcheck(lambda t: torch.linalg.vander(t, N=5), (pts,)))

# integers give int64; a 0-d input is one sample
print(torch.linalg.vander(torch.tensor([1, 2, 3], dtype=torch.int32)))
print(torch.linalg.vander(torch.tensor(3.0), N=3))
for bad in [dict(N=1), dict(N=2.0)]:
    try:
        torch.linalg.vander(x, **bad)
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__, e)
try:
    torch.linalg.vander(torch.tensor([True, False]))
except RuntimeError as e:
    print(e)
