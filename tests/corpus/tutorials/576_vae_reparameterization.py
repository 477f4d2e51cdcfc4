# The reparameterisation trick of a variational autoencoder: an encoder gives a mean and a
# log-variance, z = mu + sigma * eps is drawn with rsample() so gradients reach the encoder,
# and the KL term against a standard normal comes from torch.distributions.kl_divergence.
import torch
import torch.nn as nn
import torch.distributions as dist
from torch.distributions.normal import Normal
from torch.distributions.kl import kl_divergence

torch.manual_seed(3)
enc = nn.Linear(4, 4)
dec = nn.Linear(2, 4)
x = torch.randn(5, 4)
opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=0.01)
for step in range(3):
    h = enc(x)
    mu, logvar = h.chunk(2, dim=1)
    std = torch.exp(0.5 * logvar)
    q = Normal(mu, std)
    z = q.rsample()
    prior = dist.Normal(torch.zeros_like(mu), torch.ones_like(std))
    kl = kl_divergence(q, prior).sum(-1).mean()
    recon = ((dec(z) - x) ** 2).sum(1).mean()
    loss = recon + kl
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: recon={recon.item():.5f} kl={kl.item():.5f}")
print(q)
print(z)
print(enc.weight.grad)
print(q.log_prob(z).sum(), q.entropy().mean(), q.cdf(torch.zeros(5, 2)))
print(q.mean.shape, q.stddev[0], q.variance[0], q.batch_shape, q.event_shape)
print(dist.Normal(0, 1).sample((3,)), Normal(torch.tensor(0.0, dtype=torch.float64), 2.0).rsample())
try:
    Normal(torch.zeros(2), torch.tensor([1.0, 0.0]))
except ValueError as e:
    print("ValueError:", e)
