# Global magnitude pruning over several layers (one mask over all their weights), custom
# masks, importance scores, the method classes used directly, and PyTorch's errors for bad
# amounts, dims and names.
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune

torch.manual_seed(3)
model = nn.Sequential(nn.Linear(6, 5), nn.ReLU(), nn.Linear(5, 4), nn.ReLU(), nn.Linear(4, 2))
parameters_to_prune = (
    (model[0], "weight"),
    (model[2], "weight"),
    (model[4], "weight"),
)
prune.global_unstructured(parameters_to_prune, pruning_method=prune.L1Unstructured, amount=0.4)
for i in (0, 2, 4):
    layer = model[i]
    print(
        "Sparsity in model[{}].weight: {:.2f}%".format(
            i, 100.0 * float(torch.sum(layer.weight == 0)) / float(layer.weight.nelement())
        )
    )
total = sum(torch.sum(m.weight == 0) for m, _ in parameters_to_prune)
print("Global sparsity: {:.2f}%".format(100.0 * float(total) / float(sum(m.weight.nelement() for m, _ in parameters_to_prune))))
prune.global_unstructured(
    [(model[0], "bias"), (model[2], "bias")], pruning_method=prune.RandomUnstructured, amount=3
)
print(model[0].bias_mask, model[2].bias_mask)
prune.global_unstructured(parameters_to_prune, prune.L1Unstructured, amount=5)
print(model[4].weight_mask)
mask = torch.tensor([[1, 0], [0, 1]])
lin = nn.Linear(2, 2)
prune.custom_from_mask(lin, name="weight", mask=mask)
print(lin.weight_mask, lin.weight_mask.dtype)
print(lin.weight)
prune.identity(lin, "bias")
print(lin.bias_mask)
m = prune.L1Unstructured(amount=0.5)
t = torch.tensor([[3.0, -1.0], [0.5, -2.0]])
print(m.prune(t))
print(m.compute_mask(t, torch.ones_like(t)))
print(prune.L1Unstructured.PRUNING_TYPE, prune.LnStructured.PRUNING_TYPE, prune.CustomFromMask.PRUNING_TYPE)
lin2 = nn.Linear(3, 3)
prune.L1Unstructured.apply(lin2, "weight", amount=2)
print(lin2.weight_mask)
scores = torch.arange(9.0).view(3, 3)
lin3 = nn.Linear(3, 3)
prune.l1_unstructured(lin3, "weight", amount=0.5, importance_scores=scores)
print(lin3.weight_mask)
prune.remove(lin3, "weight")
print(prune.is_pruned(lin3), prune.is_pruned(model))
print(lin3.weight_mask if hasattr(lin3, "weight_mask") else "no mask")
for bad in (1.5, -1, "0.3", 20):
    try:
        prune.l1_unstructured(nn.Linear(3, 3), "weight", amount=bad)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
try:
    prune.ln_structured(nn.Linear(3, 3), "bias", amount=1, n=2, dim=0)
except ValueError as e:
    print(e)
try:
    prune.random_structured(nn.Linear(3, 3), "weight", amount=1, dim=2)
except IndexError as e:
    print(e)
try:
    prune.global_unstructured(parameters_to_prune, prune.LnStructured, amount=1, n=2, dim=0)
except TypeError as e:
    print(e)
try:
    prune.l1_unstructured(nn.Linear(3, 3), "weight", amount=1, importance_scores=torch.ones(2))
except AssertionError as e:
    print(e)
try:
    prune.l1_unstructured(nn.Linear(3, 3), "foo", amount=1)
except AttributeError as e:
    print(e)
lin4 = nn.Linear(3, 3)
try:
    prune.l1_unstructured(lin4, "weight", amount=10)
except ValueError as e:
    print(e)
print([n for n, _ in lin4.named_parameters()], [n for n, _ in lin4.named_buffers()])
