# load_state_dict with strict=False: the missing and unexpected keys it reports, and the
# error a strict load raises, printed from the exception.
import torch
from torch import nn

torch.manual_seed(1)
big = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
small = nn.Sequential(nn.Linear(3, 4))

state = big.state_dict()
result = small.load_state_dict(state, strict=False)
print(result.missing_keys, result.unexpected_keys)
print(torch.equal(small[0].weight, big[0].weight))

partial = {"0.weight": torch.zeros(4, 3)}
result = big.load_state_dict(partial, strict=False)
print(result.missing_keys)
print(big[0].weight.sum().item(), big[0].weight.requires_grad)

try:
    small.load_state_dict(state)
except RuntimeError as e:
    print(e)

try:
    small.load_state_dict({"0.weight": torch.zeros(2, 3), "0.bias": torch.zeros(4)})
except RuntimeError as e:
    print(e)
