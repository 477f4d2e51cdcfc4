# A diagonal Gaussian written as a Distribution subclass (the reparameterisation trick of a VAE
# encoder), next to a logistic one with PyTorch's base-class behaviour: sample() is rsample()
# without gradients, stddev comes from variance, missing methods raise NotImplementedError.
import torch
import torch.nn as nn
from torch.distributions import Distribution, Normal


class DiagGaussian(Distribution):
    arg_constraints = {}

    def __init__(self, mu, log_sigma):
        self.mu = mu
        self.sigma = log_sigma.exp()
        super().__init__(batch_shape=mu.shape, validate_args=False)

    def rsample(self, sample_shape=torch.Size()):
        eps = torch.randn(sample_shape + self.mu.shape)
        return self.mu + self.sigma * eps

    def log_prob(self, z):
        return Normal(self.mu, self.sigma).log_prob(z)

    @property
    def variance(self):
        return self.sigma ** 2


torch.manual_seed(0)
encoder = nn.Linear(4, 4)
x = torch.randn(3, 4)
mu, log_sigma = encoder(x).chunk(2, dim=-1)
q = DiagGaussian(mu, log_sigma)
print(q, q.batch_shape, q.event_shape)
z = q.rsample()
print(z)
prior = Normal(torch.zeros_like(mu), torch.ones_like(mu))
kl_mc = (q.log_prob(z) - prior.log_prob(z)).sum(-1).mean()
kl_mc.backward()
print(kl_mc)
print(encoder.weight.grad)
print(q.sample((2,)).shape, q.sample().requires_grad, q.stddev.shape)
print(isinstance(q, Distribution), isinstance(q, Normal), type(q).__name__)
for name in ("entropy", "cdf"):
    try:
        getattr(q, name)() if name == "entropy" else q.cdf(z)
    except NotImplementedError as e:
        print(name, "->", repr(e))
try:
    q.mean
except NotImplementedError:
    print("no mean defined")
