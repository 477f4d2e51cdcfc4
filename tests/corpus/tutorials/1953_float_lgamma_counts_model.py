# A Poisson / negative-binomial count model in float32: every log-likelihood goes through lgamma.
import torch
from torch.distributions import Gamma, NegativeBinomial, Poisson

torch.manual_seed(21)
counts = torch.tensor([0.0, 1.0, 3.0, 4.0, 7.0, 12.0, 2.0, 5.0])
log_rate = torch.zeros(1, requires_grad=True)
log_r = torch.zeros(1, requires_grad=True)
opt = torch.optim.Adam([log_rate, log_r], lr=0.1)
for step in range(40):
    opt.zero_grad()
    nll = -NegativeBinomial(total_count=log_r.exp(), logits=log_rate).log_prob(counts).mean()
    nll.backward()
    opt.step()
    if step % 10 == 9:
        print(f"step {step + 1}: nll={nll.item():.7f} r={log_r.exp().item():.6f}")
print("poisson:", Poisson(torch.tensor(3.3)).log_prob(counts).tolist())
print("gamma:", Gamma(torch.tensor(2.2), torch.tensor(0.7)).log_prob(counts + 0.5).tolist())
grid = torch.linspace(-3.75, 9.5, 30)
print("lgamma:", torch.lgamma(grid).tolist())
print("mvlgamma:", torch.mvlgamma(torch.tensor([1.6, 3.0, 8.25]), p=2).tolist())
