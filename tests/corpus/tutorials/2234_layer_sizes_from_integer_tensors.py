# Layer sizes computed with tensor arithmetic: a one-element integer tensor stands in for an
# int (a hypernetwork counting the weights of a target network, then slicing its output).
import torch
import torch.nn as nn

target_shapes = [(4, 3), (4,), (1, 4), (1,)]
sizes = [torch.prod(torch.tensor(shape)) for shape in target_shapes]
total = sum(sizes)
print(sizes, total)

torch.manual_seed(0)
hyper = nn.Linear(2, total)
print(hyper, hyper.weight.shape)

flat = hyper(torch.ones(1, 2, requires_grad=True))
params, start = [], 0
for shape, size in zip(target_shapes, sizes):
    params.append(flat[0, start : start + size].view(*shape))
    start = start + size
print([tuple(p.shape) for p in params])

w1, b1, w2, b2 = params
x = torch.linspace(-1, 1, 3)
y = w2 @ torch.tanh(w1 @ x + b1) + b2
y.sum().backward()
print(round(y.item(), 5), hyper.weight.grad.shape)

print(nn.Embedding(torch.tensor(6), torch.tensor(2)))
for bad in (torch.tensor(2.0), torch.tensor(-3)):
    try:
        nn.Linear(bad, 2)
    except (TypeError, RuntimeError) as err:
        print(type(err).__name__ + ":", err)
