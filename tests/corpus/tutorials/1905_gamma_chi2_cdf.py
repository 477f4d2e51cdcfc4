# Tail probabilities from Gamma and chi-square distributions (a goodness-of-fit p-value)
import torch
from torch.distributions import Chi2, Gamma

waits = Gamma(concentration=torch.tensor([1.0, 2.5, 9.0]), rate=torch.tensor([2.0, 0.5, 3.0]))
t = torch.tensor([0.7, 3.0, 2.5])
print("P(wait <= t):", waits.cdf(t))
print("P(wait > t):", 1 - waits.cdf(t))

observed = torch.tensor([18.0, 22.0, 29.0, 31.0])
expected = torch.full((4,), 25.0)
stat = ((observed - expected) ** 2 / expected).sum()
chi2 = Chi2(df=torch.tensor(3.0))
print("statistic:", stat, "p-value:", 1 - chi2.cdf(stat))

# the cdf is differentiable in the rate (not in the concentration, as PyTorch's)
rate = torch.tensor([0.8, 1.6], dtype=torch.float64, requires_grad=True)
p = Gamma(torch.tensor([1.5, 3.0], dtype=torch.float64), rate).cdf(
    torch.tensor([2.0, 1.0], dtype=torch.float64)
)
p.sum().backward()
print(p, rate.grad)
try:
    Gamma(2.0, 1.0).cdf(torch.tensor([-1.0]))
except ValueError as e:
    print("negative:", str(e).split(" of the distribution")[0])

# an inverse gamma (a Gamma through x ** -1): the decreasing power flips the cdf
from torch.distributions import Exponential, FisherSnedecor, InverseGamma, TransformedDistribution
from torch.distributions.transforms import PowerTransform

print("inverse gamma cdf:", InverseGamma(torch.tensor([2.0, 0.5]), 1.0).cdf(torch.tensor([0.5, 2.0])))
inv_exp = TransformedDistribution(Exponential(torch.tensor(1.5)), [PowerTransform(torch.tensor(-1.0))])
print("1/Exponential cdf:", inv_exp.cdf(torch.tensor([0.4, 3.0])), PowerTransform(-2.0).sign)
try:
    FisherSnedecor(2.0, 3.0).cdf(torch.tensor(1.0))
except NotImplementedError:
    print("FisherSnedecor has no cdf")
