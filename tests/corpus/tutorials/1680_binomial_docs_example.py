# The torch.distributions.Binomial docs' examples, then a few draws with more seeds and counts
# (both of PyTorch's samplers: inversion for small count * p, BTRS above it).
import torch
from torch.distributions import Binomial

torch.manual_seed(0)
m = Binomial(100, torch.tensor([0 , .2, .8, 1]))
x = m.sample()
print(x)

m = Binomial(torch.tensor([[5.], [10.]]), torch.tensor([0.5, 0.8]))
x = m.sample()
print(x)
print(m)
print(m.mean, m.mode, m.variance, sep="\n")

for seed in [1, 7, 2024]:
    torch.manual_seed(seed)
    counts = torch.randint(1, 500, (8,)).float()
    probs = torch.rand(8)
    coin = Binomial(counts, probs)
    print(seed, coin.sample().tolist())
    print(coin.sample((2,)))

# torch.binomial directly, with a generator and float64
g = torch.Generator().manual_seed(42)
print(torch.binomial(torch.full((2, 3), 40.0), torch.tensor([[0.1, 0.5, 0.9], [0.01, 0.3, 0.99]]), generator=g))
print(torch.binomial(torch.tensor([1e6, 3.0], dtype=torch.float64), torch.tensor([0.25, 0.6], dtype=torch.float64)))
print(torch.rand(3))  # the generator is where PyTorch leaves it
