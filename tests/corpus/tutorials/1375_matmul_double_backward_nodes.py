# Walking the graph of a gradient built with create_graph=True (as in gradient-penalty and
# meta-learning code): the nodes PyTorch records for vector @ matrix and batch @ vector, and
# the second derivatives they lead to.
import torch

torch.manual_seed(0)


def walk(fn, depth=0):
    if fn is None or depth > 5:
        return
    print("  " * depth + fn.name())
    for nxt, _ in fn.next_functions:
        walk(nxt, depth + 1)


v = torch.randn(4, requires_grad=True)
M = torch.randn(4, 3, requires_grad=True)
B = torch.randn(2, 3, 4, requires_grad=True)
w = torch.randn(4, requires_grad=True)

cases = [
    ("vector @ matrix", lambda: (v @ M).pow(2).sum(), (v, M)),
    ("batch @ vector", lambda: (B @ w).pow(2).sum(), (B, w)),
]
for title, f, inputs in cases:
    grads = torch.autograd.grad(f(), inputs, create_graph=True)
    print(title)
    for g in grads:
        walk(g.grad_fn, 1)
        print(" ", g.flatten()[:4].tolist())
    penalty = sum((g**2).sum() for g in grads)
    second = torch.autograd.grad(penalty, inputs)
    print(" ", [s.flatten()[:3].tolist() for s in second])

print((B @ w).tolist())
