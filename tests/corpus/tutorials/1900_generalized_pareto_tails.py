# Fitting the tail of a loss distribution with a Generalized Pareto (peaks over threshold)
import torch
from torch.distributions import GeneralizedPareto

torch.manual_seed(7)
threshold = torch.tensor([0.0, 0.5, 1.0])
gp = GeneralizedPareto(threshold, torch.tensor([1.0, 0.8, 2.0]), torch.tensor([0.25, 0.0, -0.4]))
print(gp)
print("support:", gp.support)
print(gp.arg_constraints)
excess = torch.tensor([0.3, 1.1, 4.2])
print("log_prob:", gp.log_prob(excess))
print("cdf:", gp.cdf(excess))
print("log survival:", gp.log_survival_function(excess))
print("quantiles:", gp.icdf(torch.tensor([0.5, 0.9, 0.99])))
print("mean:", gp.mean, "variance:", gp.variance)
print("entropy:", gp.entropy())
draws = gp.sample((4,))
print(draws)

# a learnable shape: reparameterized draws give gradients (float64 quantiles)
xi = torch.tensor([0.1, 0.3], dtype=torch.float64, requires_grad=True)
sigma = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
tail = GeneralizedPareto(torch.zeros(2, dtype=torch.float64), sigma, xi)
q = tail.rsample((3,))
q.mean().backward()
print(q)
print("d/dxi", xi.grad, "d/dsigma", sigma.grad)

# float32 parameters are needed for log_prob (PyTorch compares with a float32 zero)
try:
    tail.log_prob(torch.tensor([1.0, 2.0], dtype=torch.float64))
except RuntimeError as e:
    print("log_prob float64:", e)

try:
    GeneralizedPareto(0.0, -2.0, 0.1)
except ValueError as e:
    print("bad scale:", str(e).splitlines()[0])
try:
    GeneralizedPareto(torch.tensor([0.0]), torch.tensor([1.0]), torch.tensor([-0.5])).log_prob(
        torch.tensor([2.5])
    )
except ValueError as e:
    print("outside:", str(e).splitlines()[0])
