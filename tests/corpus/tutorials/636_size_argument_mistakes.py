# Shapes given the wrong way: what PyTorch's argument parser says, caught as TypeError.
import torch

attempts = [
    lambda: torch.zeros(["x"]),
    lambda: torch.zeros(2, 3.0),
    lambda: torch.zeros((2, None)),
    lambda: torch.zeros(None),
    lambda: torch.ones(2.5),
    lambda: torch.randn(2, "a"),
    lambda: torch.rand([2.5]),
    lambda: torch.empty("x", 2),
    lambda: torch.zeros(size=(2, "a")),
    lambda: torch.zeros(torch.tensor([2, 3])),
    lambda: torch.ones(),
    lambda: torch.tensor([1.0]).reshape(1, "a"),
    lambda: torch.tensor([1.0, 2.0]).view(2.0),
    lambda: torch.tensor([1.0]).expand("a"),
    lambda: torch.tensor([1.0]).repeat(2.0),
    lambda: torch.tensor([1.0]).new_zeros("a"),
    lambda: torch.tensor([1.0]).new_ones(2, None),
]
for i, attempt in enumerate(attempts):
    try:
        attempt()
        print(i, "ok")
    except TypeError as e:
        print(i, "TypeError:", e)

# what works: bools count as ints after the first size, 0-d integer tensors too
print(torch.zeros(2, True).shape)
print(torch.ones(torch.tensor(2)))
print(torch.zeros((2, torch.tensor(3))).shape)
try:
    torch.zeros(2, -1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.ones(-2, 3)
except RuntimeError as e:
    print("RuntimeError:", e)
