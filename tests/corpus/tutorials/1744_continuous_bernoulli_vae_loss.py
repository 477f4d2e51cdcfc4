# A VAE decoder on [0, 1] pixel intensities with the continuous Bernoulli likelihood (the
# correctly normalized alternative to BCE), and an F-distribution for a variance-ratio test.
import torch
import torch.nn as nn
from torch.distributions import ContinuousBernoulli, FisherSnedecor, Normal, kl_divergence

torch.manual_seed(7)

pixels = torch.tensor([[0.0, 0.1, 0.5, 0.93, 1.0, 0.25]], dtype=torch.float64)
decoder = nn.Linear(2, 6).double()
z_mu = torch.tensor([[0.3, -0.2]], dtype=torch.float64, requires_grad=True)
z_logvar = torch.tensor([[-1.0, 0.5]], dtype=torch.float64, requires_grad=True)

q = Normal(z_mu, torch.exp(0.5 * z_logvar))
z = q.rsample()
logits = decoder(z)
likelihood = ContinuousBernoulli(logits=logits)
recon = likelihood.log_prob(pixels).sum()
kl = kl_divergence(q, Normal(torch.zeros_like(z_mu), torch.ones_like(z_mu))).sum()
loss = -(recon - kl)
loss.backward()
print(round(recon.item(), 6), round(kl.item(), 6))
print(z_mu.grad, z_logvar.grad)
print(likelihood.mean)

cb = ContinuousBernoulli(probs=torch.tensor([0.05, 0.5, 0.7]))
print(cb, cb.mean, cb.variance, cb.entropy())
print(cb.log_prob(torch.tensor([0.2, 0.2, 0.9])), cb.cdf(torch.tensor([0.2, 0.5, 0.9])))
print(cb.sample((2,)))
print(ContinuousBernoulli(probs=torch.tensor([0.2, 0.6])).rsample().requires_grad)

f = FisherSnedecor(torch.tensor(4.0), torch.tensor(12.0))
print(f, f.mean, f.mode, f.variance)
ratio = torch.tensor([0.5, 1.0, 2.5, 4.0])
print(f.log_prob(ratio).exp())
print(f.sample((4,)))
