# Dispatching on the kind of a distribution with isinstance, as policy-gradient code does.
import torch
import torch.distributions as D


def entropy_bonus(dist):
    if isinstance(dist, D.Categorical):
        return dist.entropy().mean()
    if isinstance(dist, (D.Normal, D.Laplace)):
        return dist.scale.log().sum()
    if isinstance(dist, D.Distribution):
        return torch.tensor(0.0)
    raise TypeError("not a distribution")


logits = torch.tensor([[1.0, 0.5, -0.5]], requires_grad=True)
mu = torch.tensor([0.2, -0.1], requires_grad=True)
dists = [D.Categorical(logits=logits), D.Normal(mu, torch.tensor([0.5, 2.0])),
         D.Gamma(torch.tensor(2.0), torch.tensor(1.0)), D.Chi2(torch.tensor(3.0))]
for d in dists:
    print(type(d).__name__, isinstance(d, D.Gamma), isinstance(d, D.Distribution),
          entropy_bonus(d))
total = sum(entropy_bonus(d) for d in dists[:2])
total.backward()
print(logits.grad, mu.grad)
print(isinstance(torch.ones(2), D.Distribution), isinstance(dists[1], (D.Uniform, D.Normal)))
