# Sampling from probabilities that come out of a model: the draws stay in the graph
# (zero gradient), as a REINFORCE-style loop sees them.
import torch

torch.manual_seed(7)
logits = torch.randn(4, dtype=torch.float64, requires_grad=True)
probs = torch.sigmoid(logits)
coins = torch.bernoulli(probs)
print(coins)
print(coins.requires_grad, type(coins.grad_fn).__name__)

rates = torch.exp(logits).detach().requires_grad_()
counts = torch.poisson(rates)
print(counts.grad_fn.name())
(coins.sum() + counts.sum()).backward()
print(logits.grad)
print(rates.grad)

# a fixed probability has no derivative in PyTorch
flips = torch.bernoulli(probs, 0.25)
print(flips.grad_fn.name())
try:
    flips.sum().backward()
except RuntimeError as e:
    print("error:", e)

draws = torch.binomial(torch.full((3,), 10.0, dtype=torch.float64), probs[:3])
try:
    draws.mean().backward()
except RuntimeError as e:
    print("error:", e)

with torch.no_grad():
    print(torch.bernoulli(probs).requires_grad)
print(probs.bernoulli().grad_fn.name())

# the sample's node hangs directly from the probabilities' node
print(coins.grad_fn.next_functions[0][0].name())
noisy = torch.normal(logits * 2, torch.ones(4, dtype=torch.float64))
print(noisy.grad_fn.name(), noisy.grad_fn.next_functions[0][0].name())
