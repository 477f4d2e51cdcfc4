# Scoring values outside a distribution's support with validate_args=False: PyTorch skips its
# support check and evaluates the density formula as written, so the numbers below are
# whatever the formula gives (-inf, nan, or a finite value). With validation on, the same
# call raises ValueError. The gradient through such a score still flows.
import torch
import torch.distributions as D

vals = torch.tensor([-1.0, 0.25, 3.0])
dists = {
    "Uniform(0, 1)": lambda v: D.Uniform(torch.tensor(0.0), torch.tensor(1.0), validate_args=v),
    "Beta(2, 3)": lambda v: D.Beta(torch.tensor(2.0), torch.tensor(3.0), validate_args=v),
    "Exponential(2)": lambda v: D.Exponential(torch.tensor(2.0), validate_args=v),
    "Gamma(2, 1)": lambda v: D.Gamma(torch.tensor(2.0), torch.tensor(1.0), validate_args=v),
    "Poisson(2)": lambda v: D.Poisson(torch.tensor(2.0), validate_args=v),
    "Bernoulli(0.3)": lambda v: D.Bernoulli(probs=torch.tensor(0.3), validate_args=v),
    "HalfNormal(1)": lambda v: D.HalfNormal(torch.tensor(1.0), validate_args=v),
}
for name, make in dists.items():
    print(f"{name:15s} unchecked:", make(False).log_prob(vals))
    try:
        make(None).log_prob(vals)
    except ValueError as e:
        print(f"{name:15s} checked:   ValueError:", str(e).splitlines()[0][:60], "...")

# d/d(rate) of Exponential(rate).log_prob(x) = 1/rate - x, also at x < 0
rate = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
x = torch.tensor([-1.5, 0.5], dtype=torch.float64)
D.Exponential(rate, validate_args=False).log_prob(x).sum().backward()
h = 1e-6
f = lambda r: D.Exponential(torch.tensor(r, dtype=torch.float64), validate_args=False).log_prob(x).sum()
print("grad", rate.grad.item(), "central difference", round(((f(2.0 + h) - f(2.0 - h)) / (2 * h)).item(), 6))

# switched off for every distribution made from here on (a parameter out of range passes)
D.Distribution.set_default_validate_args(False)
print("default off:", D.Exponential(torch.tensor(2.0)).log_prob(torch.tensor(-1.0)))
print("scale kept:", D.Normal(torch.tensor(0.0), torch.tensor(-1.0)).scale)
D.Normal.set_default_validate_args(True)  # (a class method of every distribution)
try:
    D.Exponential(torch.tensor(2.0)).log_prob(torch.tensor(-1.0))
except ValueError as e:
    print("default on again: ValueError")
