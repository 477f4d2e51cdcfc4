# A small regression run whose bookkeeping is plain Python: epoch losses summarized with
# statistics, the worst samples kept on a heap, the learning rate chosen by bisect on
# milestones, and the results sorted with operator.itemgetter.
import bisect
import heapq
import statistics
from operator import itemgetter, attrgetter

import torch
import torch.nn as nn

torch.manual_seed(0)
X = torch.linspace(-1, 1, 16, dtype=torch.float64).unsqueeze(1)
y = 3 * X - 0.5 + 0.1 * torch.sin(7 * X)

model = nn.Linear(1, 1).double()
milestones = [5, 10, 15]
rates = [0.5, 0.25, 0.1, 0.05]
opt = torch.optim.SGD(model.parameters(), lr=rates[0])

history = []
for epoch in range(20):
    for g in opt.param_groups:
        g["lr"] = rates[bisect.bisect_right(milestones, epoch)]
    opt.zero_grad()
    per_sample = (model(X) - y).pow(2).squeeze(1)
    loss = per_sample.mean()
    loss.backward()
    opt.step()
    history.append(round(loss.item(), 6))

print("lr by epoch:", [rates[bisect.bisect_right(milestones, e)] for e in (0, 5, 9, 10, 19)])
print("mean loss %.6f, median %.6f" % (statistics.mean(history), statistics.median(history)))
print("stdev of the last five:", round(statistics.stdev(history[-5:]), 8))
print("quartiles:", [round(q, 6) for q in statistics.quantiles(history, n=4)])

# the three worst samples, kept on a bounded heap of (error, index)
worst = []
with torch.no_grad():
    errors = (model(X) - y).abs().squeeze(1).tolist()
for i, e in enumerate(errors):
    if len(worst) < 3:
        heapq.heappush(worst, (round(e, 6), i))
    else:
        heapq.heappushpop(worst, (round(e, 6), i))
print("worst samples:", sorted(worst, key=itemgetter(0), reverse=True))
print("smallest errors:", heapq.nsmallest(2, enumerate(round(e, 6) for e in errors), key=itemgetter(1)))

# a sorted record of runs: insert keeps the order
runs = []
for name, val in [("b", 0.3), ("a", 0.1), ("c", 0.2)]:
    bisect.insort(runs, (val, name))
print(runs, bisect.bisect_left(runs, (0.2,)))
print(attrgetter("weight.shape", "bias.dtype")(model))
print("w = %.4f, b = %.4f" % (model.weight.item(), model.bias.item()))
