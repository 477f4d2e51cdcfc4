# Log-likelihoods that go through lgamma, in float64, printed with every digit.
import torch
from torch.distributions import Beta, Gamma, NegativeBinomial, Poisson

torch.manual_seed(11)
x = torch.linspace(-4.75, 12.5, 12, dtype=torch.float64)
print("lgamma:", torch.lgamma(x).tolist())
print("gammaln:", torch.special.gammaln(torch.tensor([0.5, 1e-3, 150.25], dtype=torch.float64)).tolist())
print("mvlgamma:", torch.mvlgamma(torch.tensor([2.5, 4.0], dtype=torch.float64), p=2).tolist())

concentration = torch.tensor([0.7, 2.5, 9.0], dtype=torch.float64, requires_grad=True)
rate = torch.tensor(1.5, dtype=torch.float64)
data = torch.tensor([0.3, 1.2, 4.0], dtype=torch.float64)
nll = -Gamma(concentration, rate).log_prob(data).sum()
nll.backward()
print("gamma nll:", nll.item())
print("d nll / d concentration:", concentration.grad.tolist())

counts = torch.tensor([0.0, 2.0, 5.0, 11.0], dtype=torch.float64)
lam = torch.tensor(4.2, dtype=torch.float64)
print("poisson:", Poisson(lam).log_prob(counts).tolist())
print("negbin:", NegativeBinomial(total_count=3.5, probs=torch.tensor(0.4, dtype=torch.float64)).log_prob(counts).tolist())
print("beta:", Beta(torch.tensor(2.0, dtype=torch.float64), torch.tensor(3.5, dtype=torch.float64)).log_prob(torch.tensor([0.1, 0.5, 0.9], dtype=torch.float64)).tolist())
