# Passing a tensor where torch.compile / torch.jit.trace expect the function: the errors a
# user sees, caught so that the script can fall back to eager mode.
import torch

example = torch.zeros(2)


def double(z):
    return z * 2


for name, make in (
    ("compile(tensor)", lambda: torch.compile(example)),
    ("compile(param)", lambda: torch.compile(torch.nn.Parameter(example))),
    ("compile(list)", lambda: torch.compile([double])),
    ("trace(tensor)", lambda: torch.jit.trace(example)),
):
    try:
        make()
    except (AssertionError, TypeError) as err:
        print(name, type(err).__name__, err)

traced = torch.jit.trace(double, (example,))
print(traced(torch.tensor([1.5, -2.0])))
