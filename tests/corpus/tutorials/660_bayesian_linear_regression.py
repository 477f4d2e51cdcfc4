# Bayesian linear regression with a conjugate Gaussian prior: the posterior over the weights
# is a MultivariateNormal whose precision is the prior's plus X^T X / sigma^2. We draw
# posterior weights, score held-out points with the predictive log-likelihood, and compare
# the posterior with the prior through the KL divergence.
import torch
from torch.distributions import MultivariateNormal, Normal, kl_divergence

torch.manual_seed(7)
n, d = 20, 3
X = torch.randn(n, d)
w_true = torch.tensor([1.5, -2.0, 0.5])
noise = 0.3
y = X @ w_true + noise * torch.randn(n)

prior = MultivariateNormal(torch.zeros(d), covariance_matrix=torch.eye(d))
print(prior)
print(prior.batch_shape, prior.event_shape)

precision = torch.eye(d) + X.T @ X / noise**2
cov = torch.linalg.inv(precision)
mean = cov @ (X.T @ y) / noise**2
posterior = MultivariateNormal(mean, covariance_matrix=cov)
print("posterior mean:", posterior.mean)
print("posterior std:", posterior.stddev)
print("entropy prior/posterior:", prior.entropy().item(), posterior.entropy().item())
print("KL(posterior || prior):", kl_divergence(posterior, prior))

# the same posterior from its precision matrix
post2 = MultivariateNormal(mean, precision_matrix=precision)
print(post2.scale_tril)
print(post2)

samples = posterior.sample((5,))
print(samples)
print(posterior.log_prob(samples))
print(post2.log_prob(samples))

X_test = torch.randn(4, d)
preds = samples @ X_test.T
print(preds.mean(0), preds.std(0))
lik = Normal(X_test @ mean, noise)
print(lik.log_prob(X_test @ w_true).sum())

# a batch of two posteriors from one loc and two scale_tril matrices
L = torch.linalg.cholesky(torch.stack([cov, 2 * cov]))
batch = MultivariateNormal(mean, scale_tril=L)
print(batch.batch_shape, batch.event_shape, batch.variance)
print(batch.log_prob(w_true))
try:
    MultivariateNormal(torch.zeros(2), torch.tensor([[1.0, 2.0], [2.0, 1.0]]))
except ValueError as e:
    print("ValueError:", e)
