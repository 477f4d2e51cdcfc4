# Choosing a gradient estimator per distribution: the reparameterisation trick where
# has_rsample says so, the score function otherwise. Perplexity summarises uncertainty.
import torch
from torch.distributions import Normal, Categorical, Poisson, Bernoulli, Independent
from torch.distributions import TransformedDistribution, ExpTransform

torch.manual_seed(7)
theta = torch.tensor([0.3, -0.2], requires_grad=True)
dists = {
    "normal": Normal(theta, torch.ones(2)),
    "bernoulli": Bernoulli(logits=theta),
    "poisson": Poisson(theta.exp()),
}
for name, d in dists.items():
    x = d.rsample() if d.has_rsample else d.sample()
    surrogate = (x ** 2).sum() if d.has_rsample else (d.log_prob(x) * (x ** 2)).sum()
    g, = torch.autograd.grad(surrogate, theta)
    print(name, d.has_rsample, x, g)

words = Categorical(logits=torch.tensor([[2.0, 0.0, -1.0, 0.5], [0.0, 0.0, 0.0, 0.0]]))
print("perplexity:", words.perplexity())
print(Normal(0.0, 2.0).perplexity(), Independent(Normal(torch.zeros(3), torch.ones(3)), 1).perplexity())

for d in (Poisson(torch.tensor([3.0])), TransformedDistribution(Normal(0.0, 1.0), [ExpTransform()])):
    try:
        d.entropy()
    except NotImplementedError:
        print(type(d).__name__, "has no closed-form entropy")
