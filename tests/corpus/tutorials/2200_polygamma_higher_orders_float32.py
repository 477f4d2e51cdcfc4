# Higher derivatives of log-gamma in float32: polygamma(n, x) for n = 2..6, the edges
# (+-inf, poles, nan), the Hurwitz zeta behind them, and autograd through the chain
# lgamma -> digamma -> polygamma(1) -> polygamma(2) checked by central differences.
import torch

x = torch.tensor([-7.25, -2.5, -0.3, 0.05, 0.7, 1.0, 2.3, 5.5, 17.0, 250.0])
for n in range(2, 7):
    vals = torch.polygamma(n, x)
    print(f"n={n}", [f"{v:.9g}" for v in vals.tolist()])

edges = torch.tensor([float("inf"), -float("inf"), float("nan"), 0.0, -3.0, 1e30, -1e30])
for n in (1, 2, 3):
    print(f"edges n={n}", torch.special.polygamma(n, edges))

q = torch.tensor([0.5, 1.5, 3.25, 9.0, 40.0, -2.5, float("inf")])
for s in (2.0, 3.0, 4.5):
    z = torch.special.zeta(torch.full_like(q, s), q)
    print(f"zeta s={s}", [f"{v:.9g}" for v in z.tolist()])

# third derivative of lgamma by autograd, against polygamma(2) and a float64 difference
t = torch.tensor([0.8, 1.7, 3.1], dtype=torch.float64, requires_grad=True)
(g1,) = torch.autograd.grad(torch.lgamma(t).sum(), t, create_graph=True)
(g2,) = torch.autograd.grad(g1.sum(), t, create_graph=True)
(g3,) = torch.autograd.grad(g2.sum(), t)
h = 1e-4
fd = (torch.polygamma(1, t.detach() + h) - torch.polygamma(1, t.detach() - h)) / (2 * h)
print("third derivative", g3)
print("matches polygamma(2)", torch.allclose(g3, torch.polygamma(2, t.detach())))
print("matches differences", torch.allclose(g3, fd, rtol=1e-6))
