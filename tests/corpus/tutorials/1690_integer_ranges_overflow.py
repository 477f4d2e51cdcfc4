# Integer ranges: ends that an int8 / uint8 tensor cannot hold.
import torch

steps = torch.linspace(-100.7, 100.2, 7, dtype=torch.int8)
print(steps)
print(torch.linspace(-200, 200, 3, dtype=torch.uint8))
print(torch.linspace(-1, 1, 1, dtype=torch.uint8))
print(torch.arange(-5, 0, dtype=torch.uint8))
print(torch.arange(-300, 0, 100, dtype=torch.int8))

for make in (
    lambda: torch.linspace(0, 300, 3, dtype=torch.int8),
    lambda: torch.linspace(torch.tensor(0), torch.tensor(300), 5, dtype=torch.int8),
    lambda: torch.linspace(-0.5, 1, 3, dtype=torch.uint8),
    lambda: torch.linspace(0, 1e10, 4, dtype=torch.int32),
    lambda: torch.linspace(0, 1e39, 3),
    lambda: torch.linspace(0, 70000, 3, dtype=torch.float16),
    lambda: torch.linspace(300, 0, 1, dtype=torch.int8),
    lambda: torch.linspace(0, 1, 2, dtype=torch.bool),
    lambda: torch.full((2, 2), 300, dtype=torch.int8),
):
    try:
        print(make())
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)
