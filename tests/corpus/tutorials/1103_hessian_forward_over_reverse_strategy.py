# torch.autograd.functional.hessian can take its outer Jacobian in forward mode
# (forward-over-reverse, with vectorize=True). PyTorch then runs the gradient on inputs it
# makes require grad, so the Hessian comes back attached to a graph: it prints a grad_fn
# even though x itself does not require grad, unless the gradient does not depend on x.
import torch
from torch.autograd.functional import hessian

x = torch.tensor([0.5, -1.0, 2.0])
W = torch.tensor([[1.0, 0.5], [-0.5, 2.0]])


def energy(v):
    return (v**3).sum() / 6 + v.prod()


def quadratic(v):
    return (v * v).sum()


def linear(v):
    return 3 * v.sum()


fwd = dict(outer_jacobian_strategy="forward-mode", vectorize=True)
print(hessian(energy, x, **fwd))
print(hessian(energy, x))
print(hessian(quadratic, x, **fwd))
print(hessian(linear, x, **fwd))

# a matrix input: the Hessian has the shape of the input twice
H = hessian(lambda m: (m @ m).trace() + m.sin().sum(), W, **fwd)
print(H.shape)
print(H[0, 1])

# a one-element input: the result is a view
print(hessian(lambda s: s.exp(), torch.tensor(0.25), **fwd))

# two inputs: a block per pair
blocks = hessian(lambda a, b: (a * b.sin()).sum(), (x, x.flip(0)), **fwd)
for row in blocks:
    for block in row:
        print(block.grad_fn is not None, block.diagonal())

# without grad mode nothing is recorded
with torch.no_grad():
    print(hessian(energy, x, **fwd))
