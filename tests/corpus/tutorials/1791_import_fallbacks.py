# Code that must run on several PyTorch versions tries the old private module paths first
# and falls back to the public ones.
import torch

try:
    from torch.nn.utils._stateless import functional_call

    print("old private path")
except ImportError as err:
    print(type(err).__name__ + ":", err)
    from torch.func import functional_call

try:
    import torch.nn.utils.stateless_v2 as sl
except ModuleNotFoundError as err:
    print("no such module:", err)

try:
    from torch.nn import not_a_layer
except ImportError as err:
    print(type(err).__name__ + ":", str(err).split(" (")[0])

try:
    import torch.nn.functional.relu
except ModuleNotFoundError as err:
    print(err)

from torch.nn.utils import stateless

model = torch.nn.Linear(3, 1)
params = {
    "weight": torch.tensor([[1.0, -2.0, 0.5]], dtype=torch.float64),
    "bias": torch.tensor([0.25], dtype=torch.float64),
}
x = torch.tensor([[1.0, 2.0, 3.0], [0.0, 1.0, -1.0]], dtype=torch.float64)
print(functional_call(model, params, (x,)))
print(stateless is not None)
