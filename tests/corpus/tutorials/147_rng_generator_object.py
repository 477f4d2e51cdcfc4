import torch

g = torch.Generator().manual_seed(42)
print(torch.rand(3, generator=g))
print(torch.randn(2, generator=g))
print(g.initial_seed())

g2 = torch.Generator()
g2.manual_seed(42)
print(torch.rand(3, generator=g2))

torch.manual_seed(1)
state = torch.get_rng_state()
first = torch.randn(4)
torch.set_rng_state(state)
second = torch.randn(4)
print(first)
print(torch.equal(first, second))
