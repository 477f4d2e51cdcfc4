# An LKJ prior on the correlation structure of a multivariate normal, as hierarchical models
# write it: draw a Cholesky factor, build a covariance, score it.
import torch
from torch.distributions import LKJCholesky, MultivariateNormal

torch.manual_seed(5)

eta = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
prior = LKJCholesky(3, concentration=eta)
print(prior, prior.batch_shape, prior.event_shape, prior.support)
L = prior.sample()
print(L)
corr = L @ L.T
print(corr.diagonal())
lp = prior.log_prob(L)
lp.backward()
print(lp, eta.grad)

sigma = torch.tensor([1.0, 0.5, 2.0], dtype=torch.float64)
scale_tril = torch.diag(sigma) @ L
mvn = MultivariateNormal(torch.zeros(3, dtype=torch.float64), scale_tril=scale_tril)
x = mvn.sample((2,))
print(x.shape, mvn.log_prob(x))

# a batch of priors with different concentrations, and the identity's density
batch = LKJCholesky(2, torch.tensor([0.5, 1.0, 10.0]))
print(batch.sample().shape)
print(batch.log_prob(torch.eye(2)))
