# Exact expectations over a discrete policy instead of sampling: list every action with
# enumerate_support, weight a reward by its probability and differentiate the sum.
import torch
from torch.distributions import Bernoulli, Categorical, OneHotCategorical, Independent, Poisson

logits = torch.tensor([[0.5, -1.0, 2.0], [0.0, 0.3, -0.2]], requires_grad=True)
policy = Categorical(logits=logits)
actions = policy.enumerate_support()
print(actions)
print(policy.enumerate_support(expand=False).shape)
reward = torch.tensor([1.0, -2.0, 0.5])
expected = (policy.log_prob(actions).exp() * reward[actions]).sum(0)
print(expected)
expected.sum().backward()
print(logits.grad)

coin = Bernoulli(probs=torch.tensor([0.25, 0.9]))
print(coin.has_enumerate_support, coin.enumerate_support())
print((coin.log_prob(coin.enumerate_support()).exp()).sum(0))

onehot = OneHotCategorical(probs=torch.tensor([0.2, 0.3, 0.5]))
print(onehot.enumerate_support())

print(Independent(coin, 0).enumerate_support().shape)
try:
    Independent(coin, 1).enumerate_support()
except NotImplementedError as e:
    print("Independent:", e)

counts = Poisson(torch.tensor([3.0]))
print(counts.has_enumerate_support)
try:
    counts.enumerate_support()
except NotImplementedError:
    print("Poisson has infinitely many values")
