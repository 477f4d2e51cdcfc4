# What torch.binomial says when it is called wrongly (each caught and printed).
import torch

counts = torch.tensor([10., 20.])
calls = [
    lambda: torch.binomial(counts, 0.5),
    lambda: torch.binomial(10, torch.tensor([0.5, 0.5])),
    lambda: torch.binomial(counts, torch.tensor([0.5, 0.5], dtype=torch.float64)),
    lambda: torch.binomial(torch.tensor([10, 20]), torch.tensor([0.5, 0.5])),
    lambda: torch.binomial(counts, torch.tensor([0.5, 0.5, 0.5])),
]
for call in calls:
    try:
        print(call())
    except (TypeError, ValueError, RuntimeError) as e:
        print(type(e).__name__, e)

torch.manual_seed(5)
print(torch.binomial(torch.tensor([-3., 0., 7.]), torch.tensor([0.5, 0.5, 1.0])))
print(torch.binomial(torch.empty(0), torch.empty(0)))

# a count and a prob of different shapes broadcast (PyTorch warns that its output is resized)
print(torch.binomial(torch.tensor([[5.], [10.]]), torch.tensor([0.5, 0.8])))
print(torch.binomial(torch.full((2, 3), 30.), torch.tensor([0.1, 0.5, 0.9])))
