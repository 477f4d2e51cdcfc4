# Over-dispersed counts with a NegativeBinomial (a Gamma-Poisson mixture): draws, log_prob and
# the gradient of the negative log-likelihood with respect to the dispersion and the logits.
import torch
from torch.distributions import NegativeBinomial, Poisson

torch.set_printoptions(precision=8)
torch.manual_seed(11)
true = NegativeBinomial(total_count=torch.tensor([3.0, 8.0]), probs=torch.tensor([0.6, 0.25]))
print(true)
counts = true.sample((6,))
print(counts)
print(true.mean, true.variance, true.mode, sep="\n")
print(true)

log_r = torch.zeros(2, requires_grad=True)
logits = torch.zeros(2, requires_grad=True)
opt = torch.optim.Adam([log_r, logits], lr=0.1)
for step in range(5):
    model = NegativeBinomial(total_count=log_r.exp(), logits=logits)
    nll = -model.log_prob(counts).mean()
    opt.zero_grad()
    nll.backward()
    print(step, nll.item(), log_r.grad, logits.grad)
    opt.step()

# against a Poisson of the same mean
print(Poisson(counts.mean(0)).log_prob(counts).sum(0))
print(NegativeBinomial(torch.tensor(2.0, dtype=torch.float64), logits=torch.tensor(0.5, dtype=torch.float64)).log_prob(torch.arange(5.0, dtype=torch.float64)))
try:
    NegativeBinomial(2.0, probs=torch.tensor([0.5, 1.0]))
except ValueError as e:
    print(e)
