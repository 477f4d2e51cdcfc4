# Wrapping layers with weight and spectral normalisation, then registering hooks of our own
# and printing the hook tables: their keys are handle numbers counted over the whole run.
import torch.nn as nn
from torch.nn.utils import parametrizations, prune

wn = parametrizations.weight_norm(nn.Linear(4, 3))
legacy = nn.utils.spectral_norm(nn.Linear(4, 3))
print(list(legacy._forward_pre_hooks.keys()))

probe = nn.Linear(3, 2)
handle = probe.register_forward_hook(lambda mod, inp, out: None)
print("forward hook id:", handle.id)
print(list(probe._forward_hooks.keys()))

pruned = nn.Linear(3, 2)
prune.l1_unstructured(pruned, "weight", amount=0.5)
print(list(pruned._forward_pre_hooks.keys()))
pre = pruned.register_forward_pre_hook(lambda mod, inp: None)
print(list(pruned._forward_pre_hooks.keys()), pre.id)
handle.remove()
print(list(probe._forward_hooks.keys()))
