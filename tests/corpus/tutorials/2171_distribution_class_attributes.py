# Reading what a distribution class declares before making one: its parameters'
# constraints, its support, whether it can rsample, and how the classes relate.
from torch import distributions as dist

for cls in (dist.Normal, dist.Gamma, dist.Bernoulli, dist.Dirichlet, dist.Poisson):
    print(cls.__name__, cls.arg_constraints)
    print(
        "  support:",
        cls.support,
        "rsample:",
        cls.has_rsample,
        "enumerate:",
        cls.has_enumerate_support,
    )

print(issubclass(dist.Chi2, dist.Gamma), issubclass(dist.Gamma, dist.Chi2))
print(issubclass(dist.Normal, dist.Distribution))
print(issubclass(dist.LogNormal, dist.TransformedDistribution))
print(issubclass(dist.Exponential, (dist.Gamma, dist.Normal)))
try:
    issubclass(dist.Normal(0.0, 1.0), dist.Distribution)
except TypeError as err:
    print(err)
