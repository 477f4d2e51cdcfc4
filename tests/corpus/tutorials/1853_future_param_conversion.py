# torch.__future__ decides what `model.double()` does to the Parameter objects: by default
# they are kept (their .data replaced), so an optimizer built before still holds them; with
# set_overwrite_module_params_on_conversion(True) the module gets new Parameter objects.
import torch
import torch.nn as nn

print(torch.__future__.get_overwrite_module_params_on_conversion(),
      torch.__future__.get_swap_module_params_on_conversion())

torch.manual_seed(5)
kept = nn.Linear(3, 1)
held = list(kept.parameters())
kept(torch.ones(1, 3)).sum().backward()
kept.double()
print([p is q for p, q in zip(held, kept.parameters())], held[0].dtype, held[0].grad.dtype)

torch.__future__.set_overwrite_module_params_on_conversion(True)
print(torch.__future__.get_overwrite_module_params_on_conversion())
fresh = nn.Linear(3, 1)
old = list(fresh.parameters())
fresh(torch.ones(1, 3)).sum().backward()
fresh.double()
print([p is q for p, q in zip(old, fresh.parameters())])
print(old[0].dtype, fresh.weight.dtype, fresh.weight.grad.dtype, fresh.weight.requires_grad)
print(old[0].grad)
print(fresh.weight.grad)

# a model already in float64: still new objects, on the same storage
again = list(fresh.parameters())
fresh.double()
print(fresh.weight is again[0], fresh.weight.data_ptr() == again[0].data_ptr())
torch.__future__.set_overwrite_module_params_on_conversion(False)

# swapping keeps the objects, their contents exchanged
torch.__future__.set_swap_module_params_on_conversion(True)
swapped = nn.Linear(2, 2)
w = swapped.weight
swapped.double()
print(swapped.weight is w, w.dtype)
torch.__future__.set_swap_module_params_on_conversion(False)
