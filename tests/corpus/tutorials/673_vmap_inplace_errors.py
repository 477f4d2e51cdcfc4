# Writing a batched value into a tensor that is not batched, inside vmap: PyTorch refuses it
# (each method in its own words) instead of leaving the last sample's value.
import torch
from torch.func import vmap

torch.manual_seed(0)
batch = torch.rand(4, 3) + 0.5
state = torch.zeros(3)
attempts = {
    "fill_": lambda y: state.fill_(y.sum()),
    "logical_and_": lambda y: state.logical_and_(y > 1),
    "mul_": lambda y: state.mul_(y),
    "add_": lambda y: state.add_(y),
    "clamp_": lambda y: state.clamp_(min=y),
    "addcmul_": lambda y: state.addcmul_(y, y, value=0.5),
    "lerp_": lambda y: state.lerp_(y, 0.1),
    "index_add_": lambda y: state.index_add_(0, torch.tensor([0, 2, 1]), y),
    "masked_fill_": lambda y: state.masked_fill_(y > 1.0, 2.0),
    "copy_": lambda y: state.copy_(y),
    "sub_": lambda y: state.sub_(y),
    "pow_": lambda y: state.pow_(y),
}
for name, f in attempts.items():
    try:
        vmap(f)(batch)
        print(name, "ran", state)
    except RuntimeError as e:
        print(name, "->", e)

# nested vmap: the level PyTorch names is the innermost one
def inner(rows):
    return vmap(lambda r: state.clamp_(max=r))(rows)

try:
    vmap(inner)(torch.rand(2, 4, 3))
except RuntimeError as e:
    print(e)

# the same updates written out of place work
print(vmap(lambda y: state.clamp(min=y))(batch))
print(vmap(lambda y: y.clone().add_(state))(batch))
try:
    vmap(lambda y: torch.zeros(3).add_(y))(batch)
except RuntimeError as e:
    print(e)
