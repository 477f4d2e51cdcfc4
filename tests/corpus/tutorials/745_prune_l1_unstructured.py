# Pruning one layer as the pruning tutorial does: l1_unstructured moves weight to weight_orig,
# keeps weight_mask as a buffer and recomputes weight before every call; gradients reach
# weight_orig through the mask; a second pruning joins a PruningContainer; remove() makes
# the pruning permanent.
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune

torch.manual_seed(0)
layer = nn.Linear(4, 3)
prune.l1_unstructured(layer, name="weight", amount=0.5)
print([name for name, _ in layer.named_parameters()])
print([name for name, _ in layer.named_buffers()])
print(layer.weight_mask)
print(layer.weight)
print(layer.weight_orig)
x = torch.randn(2, 4)
out = layer(x).sum()
out.backward()
print(layer.weight_orig.grad)
print(list(layer.state_dict().keys()))
print(prune.is_pruned(layer))
for hook in layer._forward_pre_hooks.values():
    print(hook._tensor_name, type(hook).__name__, isinstance(hook, prune.BasePruningMethod))
prune.random_unstructured(layer, name="bias", amount=1)
print(layer.bias_mask)
prune.ln_structured(layer, name="weight", amount=1, n=2, dim=0)
print(layer.weight_mask)
for hook in layer._forward_pre_hooks.values():
    if hook._tensor_name == "weight":
        print(len(hook), [type(h).__name__ for h in hook])
prune.remove(layer, "weight")
print([name for name, _ in layer.named_parameters()])
print(layer.weight)
print(type(layer.weight))
print(float(torch.sum(layer.weight == 0)) / layer.weight.nelement())
print("Sparsity: {:.2f}%".format(100.0 * float(torch.sum(layer.weight == 0)) / float(layer.weight.nelement())))
try:
    prune.remove(layer, "weight")
except ValueError as e:
    print(e)
