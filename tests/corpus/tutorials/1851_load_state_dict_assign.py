# load_state_dict(sd, assign=True) makes the checkpoint's tensors the model's own instead of
# copying them into the existing parameters: the dtype comes from the checkpoint, a plain
# tensor is wrapped in a Parameter, and the storage is shared with the state dict.
import torch
import torch.nn as nn

torch.manual_seed(11)
trained = nn.Linear(4, 2)
fresh = nn.Linear(4, 2)
old_weight = fresh.weight

checkpoint = trained.state_dict()
result = fresh.load_state_dict(checkpoint, assign=True)
print(result)
print("same object as before:", fresh.weight is old_weight)
print("shares the checkpoint's storage:",
      fresh.weight.data_ptr() == checkpoint["weight"].data_ptr())
print(type(fresh.weight).__name__, fresh.weight.requires_grad)

with torch.no_grad():
    checkpoint["bias"].add_(1.0)
print(fresh.bias)

# plain tensors from elsewhere (a float64 export, say): the dtype is kept
exported = {"weight": torch.arange(8, dtype=torch.float64).reshape(2, 4) / 10,
            "bias": torch.tensor([0.5, -0.5], dtype=torch.float64)}
fresh.load_state_dict(exported, assign=True)
print(fresh.weight)
print(fresh(torch.ones(1, 4, dtype=torch.float64)))

# a frozen parameter stays frozen
fresh.weight.requires_grad_(False)
fresh.load_state_dict(trained.state_dict(), assign=True)
print(fresh.weight.requires_grad, fresh.bias.requires_grad)

# without assign, the values are copied and converted to the parameter's dtype
model = nn.Linear(4, 2)
model.load_state_dict(exported)
print(model.weight.dtype, model.weight.data_ptr() == exported["weight"].data_ptr())

# buffers, strict=False and a size mismatch
net = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
stats = {"1.running_mean": torch.tensor([0.1, 0.2]), "1.running_var": torch.tensor([2.0, 3.0])}
print(net.load_state_dict(stats, strict=False, assign=True))
print(net[1].running_mean is stats["1.running_mean"], net[1].running_var)
try:
    net.load_state_dict({"0.weight": torch.ones(3, 2)}, strict=False, assign=True)
except RuntimeError as e:
    print(e)
