# Unconstrained parameters for a correlation matrix and a probability vector
import torch
from torch.distributions import (
    Independent,
    LKJCholesky,
    Normal,
    TransformedDistribution,
    biject_to,
    constraints,
    transform_to,
)
from torch.distributions.transforms import CorrCholeskyTransform, SoftmaxTransform

torch.manual_seed(3)
to_corr = biject_to(constraints.corr_cholesky)
print(to_corr, to_corr == CorrCholeskyTransform())

raw = torch.tensor([[0.4, -1.2, 0.7], [2.0, 0.1, -0.3]], dtype=torch.float64, requires_grad=True)
L = to_corr(raw)
print(L)
print("rows have unit norm:", torch.allclose(L.norm(dim=-1), torch.ones(2, 3, dtype=torch.float64)))
corr = L @ L.transpose(-1, -2)
print(corr)
print("back:", to_corr.inv(L))
logdet = to_corr.log_abs_det_jacobian(raw, L)
print("log|det J|:", logdet)

# an LKJ prior on the correlation, written on the unconstrained parameters
prior = LKJCholesky(3, concentration=2.0)
loss = -(prior.log_prob(L) + logdet).sum()
loss.backward()
print("loss:", loss.item())
print(raw.grad)

# a TransformedDistribution of Cholesky factors
base = Independent(Normal(torch.zeros(3), torch.ones(3)), 1)
factors = TransformedDistribution(base, [CorrCholeskyTransform()])
print(factors.batch_shape, factors.event_shape)
draws = factors.sample((2,))
print(draws)
print(factors.log_prob(draws))

# softmax: transform_to(simplex), not a bijection
to_simplex = transform_to(constraints.simplex)
print(to_simplex)
logits = torch.tensor([[1.0, 0.0, -1.0, 2.0]])
p = to_simplex(logits)
print(p, p.sum(-1))
print(to_simplex.inv(p))
try:
    to_simplex.log_abs_det_jacobian(logits, p)
except NotImplementedError:
    print("softmax has no log|det J|")
mix = TransformedDistribution(Normal(torch.zeros(4), torch.ones(4)), SoftmaxTransform())
print(mix.sample().sum())

try:
    to_corr(torch.zeros(4))
except RuntimeError as e:
    print("bad length:", e)
