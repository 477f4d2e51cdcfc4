# A Wishart prior on a 2 x 2 precision matrix (Bayesian multivariate normal), sampled and
# scored, with gradients of the log-density with respect to the degrees of freedom and scale.
import torch
from torch.distributions import MultivariateNormal, Wishart

torch.manual_seed(23)

df = torch.tensor(5.0, dtype=torch.float64, requires_grad=True)
scale = torch.tensor([[1.0, 0.3], [0.3, 0.5]], dtype=torch.float64, requires_grad=True)
prior = Wishart(df, covariance_matrix=scale)
print(prior, prior.batch_shape, prior.event_shape, prior.support)
print(prior.mean)
print(prior.variance)

precision = prior.sample()
print(precision)
lp = prior.log_prob(precision)
h = prior.entropy()
(lp + h).backward()
print(lp, h)
print(df.grad, scale.grad)

data = MultivariateNormal(torch.zeros(2, dtype=torch.float64), precision_matrix=precision)
x = data.sample((3,))
print(x.shape, data.log_prob(x))

batch = Wishart(
    torch.tensor([3.0, 8.0], dtype=torch.float64), scale_tril=torch.eye(2, dtype=torch.float64)
)
draws = batch.rsample((2,))
print(draws.shape, batch.log_prob(draws))
