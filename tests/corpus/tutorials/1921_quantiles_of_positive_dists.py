# Quantile functions (icdf) of distributions on the positive half-line, checked by sending
# them back through cdf, plus the gradient of a quantile with respect to the scale.
import torch
from torch.distributions import Gamma, HalfCauchy, HalfNormal, LogNormal

probs = torch.tensor([0.05, 0.25, 0.5, 0.75, 0.95], dtype=torch.float64)

half = HalfNormal(torch.tensor([0.5, 2.0], dtype=torch.float64))
q = half.icdf(probs.unsqueeze(-1))
print("HalfNormal quantiles:\n", q)
print("round trip:", torch.allclose(half.cdf(q), probs.unsqueeze(-1).expand(5, 2)))

cauchy = HalfCauchy(torch.tensor(1.5, dtype=torch.float64))
print("HalfCauchy median:", cauchy.icdf(torch.tensor(0.5, dtype=torch.float64)).item())
print("HalfCauchy quantiles:", cauchy.icdf(probs))

lognormal = LogNormal(
    torch.tensor(0.2, dtype=torch.float64), torch.tensor(0.8, dtype=torch.float64)
)
qs = lognormal.icdf(probs)
print("LogNormal quantiles:", qs)
print("LogNormal cdf back:", lognormal.cdf(qs))
print("edges:", half.icdf(torch.tensor([0.0, 1.0], dtype=torch.float64).unsqueeze(-1)))

# how fast does the 90% quantile grow with the scale?
scale = torch.tensor(1.25, dtype=torch.float64, requires_grad=True)
HalfNormal(scale).icdf(torch.tensor(0.9, dtype=torch.float64)).backward()
print("d q90 / d scale:", scale.grad)
sigma = torch.tensor(0.6, dtype=torch.float64, requires_grad=True)
LogNormal(torch.tensor(0.0, dtype=torch.float64), sigma).icdf(
    torch.tensor(0.75, dtype=torch.float64)
).backward()
print("d LogNormal q75 / d sigma:", sigma.grad)

for dist in (Gamma(torch.tensor(2.0), torch.tensor(1.0)), half):
    try:
        dist.icdf(torch.tensor(0.5)) if isinstance(dist, Gamma) else dist.icdf(0.5)
    except NotImplementedError:
        print(type(dist).__name__, "has no icdf")
    except TypeError as e:
        print(type(dist).__name__, "TypeError:", e)
