# repeat and permute take their sizes as positions or as one keyword; repeat with none at
# all is refused by PyTorch's parser (a TypeError, not the kernel's RuntimeError).
import torch

grid = torch.arange(6.0).reshape(2, 3).requires_grad_()
point = torch.tensor(4.0)

for name, call in [
    ("repeat()", lambda: grid.repeat()),
    ("repeat() of a 0-d", lambda: point.repeat()),
    ("repeat(())", lambda: point.repeat(())),
    ("repeat(2)", lambda: grid.repeat(2)),
    ("repeat(repeats=(2, 1))", lambda: grid.repeat(repeats=(2, 1))),
    ("permute(dims=[1, 0])", lambda: grid.permute(dims=[1, 0])),
]:
    try:
        print(name, "->", call())
    except TypeError as err:
        print(name, "TypeError:", err)
    except RuntimeError as err:
        print(name, "RuntimeError:", err)

tiled = grid.repeat(2, 1)
(tiled * torch.arange(12.0).reshape(4, 3)).sum().backward()
print(grid.grad)
