# A pruning method of one's own, as the pruning tutorial writes it: a subclass of
# prune.BasePruningMethod with PRUNING_TYPE and compute_mask, applied with its classmethod
# apply; joined with another in a PruningContainer; the abstract base refusing instances.
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune


class ThresholdPruning(prune.BasePruningMethod):
    PRUNING_TYPE = "unstructured"

    def __init__(self, threshold):
        self.threshold = threshold

    def compute_mask(self, tensor, default_mask):
        return default_mask * (torch.abs(tensor) > self.threshold)


class RowPruning(prune.BasePruningMethod):
    PRUNING_TYPE = "structured"

    def __init__(self, row, dim=0):
        self.row = row
        self.dim = dim

    def compute_mask(self, t, default_mask):
        mask = default_mask.clone()
        mask[self.row] = 0
        return mask


class HalfL1(prune.BasePruningMethod):
    def __init__(self):
        self.inner = prune.L1Unstructured(amount=0.5)

    def compute_mask(self, t, default_mask):
        print("computing on", tuple(t.shape))
        return self.inner.compute_mask(t, default_mask)


class NoMask(prune.BasePruningMethod):
    pass


torch.manual_seed(7)
fc = nn.Linear(4, 3)
method = ThresholdPruning.apply(fc, "weight", threshold=0.25)
print(type(method).__name__, method._tensor_name, isinstance(method, prune.BasePruningMethod))
print(fc.weight_mask)
RowPruning.apply(fc, "weight", 1)
print(fc.weight_mask)
print(fc.weight)
hooks = list(fc._forward_pre_hooks.values())
print(len(hooks), type(hooks[0]).__name__, [type(m).__name__ for m in hooks[0]])
out = fc(torch.ones(1, 4)).sum()
out.backward()
print(fc.weight_orig.grad)
fc2 = nn.Linear(3, 2)
HalfL1.apply(fc2, "weight")
print(fc2.weight_mask)
prune.remove(fc, "weight")
print(fc.weight)
try:
    NoMask()
except TypeError as e:
    print(e)
print(issubclass(ThresholdPruning, prune.BasePruningMethod))
print(ThresholdPruning.PRUNING_TYPE, RowPruning.PRUNING_TYPE)
try:
    print(HalfL1.PRUNING_TYPE)
except AttributeError as e:
    print(e)


class FooBarPruningMethod(prune.BasePruningMethod):
    """Prune every other entry in a tensor"""

    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        mask = default_mask.clone()
        mask.view(-1)[::2] = 0
        return mask


def foobar_unstructured(module, name):
    FooBarPruningMethod.apply(module, name)
    return module


torch.manual_seed(1)
lin = nn.Linear(3, 2)
foobar_unstructured(lin, name="bias")
print(lin.bias_mask)
print(lin.bias)
