# A module on the meta device comes back to the CPU only through to_empty.
import torch
import torch.nn as nn

shell = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)).to("meta")
for attempt in ("to", "cpu"):
    try:
        shell.to("cpu") if attempt == "to" else shell.cpu()
    except NotImplementedError as e:
        print(attempt, "->", e)

print(shell.double()[0].weight)
shell.to_empty(device="cpu")
for p in shell.parameters():
    nn.init.ones_(p)
print(shell[0].weight.dtype, shell(torch.ones(2, 3, dtype=torch.float64)))
