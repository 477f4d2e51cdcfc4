# Selecting from a single score: a reward model outputs one scalar per call, and the code that
# ranks candidates runs topk / sort / kthvalue on it anyway. On a 0-d tensor these return the
# value itself in a new tensor that is part of the graph, with index 0.
import torch

score = torch.tensor(0.731, requires_grad=True)

best = torch.topk(score, 1)
print(best)
print(type(best.values.grad_fn).__name__, best.values is score)

none_kept = torch.topk(score, k=0)  # k may be 0 or 1 here; the value comes back either way
print(none_kept.values, none_kept.indices)

ranked = score.sort(descending=True)
print(ranked)
print(torch.sort(score, stable=True).values.grad_fn.name())

kth = torch.kthvalue(score, 1)
print(kth)
print(type(kth).__name__, kth.values.grad_fn.name())

# gradients flow through every selection to the one score
total = best.values * 2 + ranked.values + kth.values * 3 + none_kept.values
total.backward()
print("d total / d score =", score.grad)

# the result is a copy: changing it in place leaves the score alone
with torch.no_grad():
    picked = torch.topk(score, 1).values
    picked.mul_(10)
print(score, picked)

for bad in (
    lambda: torch.topk(score, 2),
    lambda: score.sort(dim=1),
    lambda: torch.kthvalue(score, 3),
):
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, "-", e)
