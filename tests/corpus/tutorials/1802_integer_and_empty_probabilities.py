# Probabilities given as counts (integers) or with a row of zeros: what torch.distributions
# and torch.bernoulli accept, normalize, or refuse.
import torch
from torch.distributions import Bernoulli, Categorical

torch.manual_seed(5)
counts = torch.tensor([[2, 1, 1], [0, 3, 1]])
votes = Categorical(probs=counts)
print(votes.probs)
print(votes.sample((5,)))
print(votes.log_prob(torch.tensor([0, 1])), votes.entropy())

for bad in (
    torch.tensor([[1, 1, 0], [0, 0, 0]]),
    torch.tensor([0.0, 0.0]),
    torch.tensor([2.0, -1.0]),
):
    try:
        Categorical(probs=bad)
    except ValueError as e:
        print(e)
print(Categorical(probs=torch.tensor([0.0, 0.0]), validate_args=False).probs)

coins = Bernoulli(probs=torch.tensor([0, 1, 1]))
print(coins.probs, coins.mean, coins.variance)
for ask in (lambda: coins.logits, lambda: coins.log_prob(torch.tensor([1.0, 1.0, 0.0]))):
    try:
        ask()
    except TypeError as e:
        print(e)
print(Bernoulli(probs=torch.tensor([0, 1, 1]).float()).log_prob(torch.tensor([1.0, 1.0, 0.0])))

mask = torch.zeros(6, dtype=torch.long)
print(torch.bernoulli(mask, 0.5), mask.bernoulli_(0.25))
for bad in (
    lambda: torch.bernoulli(mask),
    lambda: torch.ones(3).bernoulli_(torch.tensor([1, 0, 1])),
):
    try:
        bad()
    except NotImplementedError as e:
        print(e)
print(torch.bernoulli(torch.tensor([1.0, 0.0, 1.0])))
