# Functional training with torch.func: the parameters live in a dict, and
# torch.utils._pytree maps the update over them.
import collections

import torch
import torch.nn as nn
from torch.func import functional_call, grad
from torch.utils._pytree import (
    tree_flatten,
    tree_leaves,
    tree_map,
    tree_structure,
    tree_unflatten,
)
import torch.utils._pytree as pytree

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
params = {k: v.detach() for k, v in model.named_parameters()}
x = torch.randn(8, 3)
y = torch.randn(8, 1)


def loss_fn(p, x, y):
    out = functional_call(model, p, (x,))
    return ((out - y) ** 2).mean()


for step in range(3):
    g = grad(loss_fn)(params, x, y)
    params = tree_map(lambda p, gp: p - 0.1 * gp, params, g)
    print(step, loss_fn(params, x, y).item())

leaves, spec = tree_flatten(params)
print(len(leaves), [tuple(l.shape) for l in leaves])
print(spec)
print(spec.num_leaves, spec.num_nodes)
print(sum(l.numel() for l in tree_leaves(params)))

# rebuild with zeros, the structure kept
zeros = tree_unflatten([torch.zeros_like(l) for l in leaves], spec)
print({k: v.shape for k, v in zeros.items()})

# nested containers; None is a leaf
state = {"step": 3, "buffers": [torch.ones(2), None], "cfg": (0.1, {"beta": 0.9})}
flat, s = tree_flatten(state)
print(flat)
print(s)
print(pytree.treespec_pprint(s))
print(tree_map(lambda v: v * 2 if isinstance(v, (int, float)) else v, state))
print(pytree.tree_map_only(torch.Tensor, lambda t: t + 1, state))
print(pytree.tree_all(lambda v: v is not None, state), pytree.tree_any(lambda v: v is None, state))
print(tree_structure((1, [2, 3])) == tree_structure((4, [5, 6])))
print(tree_structure([1, 2]) == tree_structure((1, 2)))

# named tuples and OrderedDicts are nodes too
Batch = collections.namedtuple("Batch", ["inputs", "targets"])
b = Batch(torch.ones(2, 3), torch.zeros(2))
print(tree_map(lambda t: t.shape, b))
od = collections.OrderedDict([("a", 1), ("b", 2)])
print(tree_flatten(od))
print(tree_flatten(torch.ones(2)))
print(tree_flatten(None))

# a leaf predicate keeps (tensor, tensor) pairs whole
pairs = [(torch.ones(1), torch.zeros(1)), (torch.ones(2), torch.zeros(2))]
print(tree_leaves(pairs, is_leaf=lambda v: isinstance(v, tuple)))

# structure mismatches
for a, b2 in [([1, 2], [1, 2, 3]), ([1, 2], (1, 2)), ({"a": 1}, {"b": 1}), ([1, 2], [1, 5])]:
    try:
        print(tree_map(lambda u, v: u + v, a, b2))
    except ValueError as e:
        print("ValueError:", e)
try:
    tree_unflatten([1, 2], tree_structure([1, [2, 3]]))
except ValueError as e:
    print("ValueError:", e)
