# itertools as training scripts use it: one optimizer over two modules' parameters, a grid
# of settings, pairs of samples, and a bounded slice of an endless stream of steps.
import itertools
from itertools import chain, combinations, count, islice, product

import torch
import torch.nn as nn

torch.manual_seed(0)
encoder = nn.Linear(4, 2)
decoder = nn.Linear(2, 4)
params = itertools.chain(encoder.parameters(), decoder.parameters())
print(type(params).__name__, str(type(params)))
opt = torch.optim.SGD(params, lr=0.1, momentum=0.9)
print(len(opt.param_groups[0]["params"]))
x = torch.randn(8, 4)
for step in islice(count(1), 4):
    opt.zero_grad()
    loss = (decoder(encoder(x)) - x).pow(2).mean()
    loss.backward()
    opt.step()
    print(f"step {step}: {loss.item():.6f}")

names = [n for n, _ in chain(encoder.named_parameters(), decoder.named_parameters())]
print(names)
print(list(chain.from_iterable([[1, 2], (3,), range(4, 6)])))

# a small grid search over learning rate and weight decay
for lr, wd in product([0.05, 0.2], [0.0, 0.01]):
    w = torch.zeros(3, requires_grad=True)
    o = torch.optim.SGD([w], lr=lr, weight_decay=wd)
    for _ in range(5):
        o.zero_grad()
        ((w - torch.tensor([1.0, -2.0, 0.5])) ** 2).sum().backward()
        o.step()
    print(lr, wd, w.detach())

# pairwise distances between samples, summed, and differentiated
pts = torch.tensor([[0.0, 0.0], [3.0, 4.0], [1.0, 1.0]], requires_grad=True)
total = sum((pts[i] - pts[j]).norm() for i, j in combinations(range(3), 2))
total.backward()
print(total, pts.grad)

print(list(itertools.permutations("abc", 2))[:4], list(itertools.repeat(0.5, 3)))
print(list(itertools.zip_longest([1, 2, 3], ["a"], fillvalue="-")))
print(list(itertools.accumulate([1, 2, 3, 4])), list(itertools.accumulate([2, 3], lambda a, b: a * b, initial=5)))
running = list(itertools.accumulate(torch.tensor([1.0, 2.0, 3.0], requires_grad=True)))
print(running)
print(list(itertools.combinations_with_replacement([0, 1], 2)), next(product("xy", repeat=3)))
it = islice("abcdefg", 1, None, 3)
print(repr(it).split(" object")[0], list(it), list(it))
for bad in (lambda: islice([1], -1), lambda: product([1], repeat=-2), lambda: next(chain(3))):
    try:
        bad()
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
