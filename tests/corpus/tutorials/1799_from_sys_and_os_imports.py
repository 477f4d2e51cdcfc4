# A training script that imports single names from sys and os: it prints its progress to
# stdout, and names its output files with os.path's text functions.
from os import path
from os.path import basename, join, splitext
from sys import argv, stderr, stdout

import torch

name = splitext(basename(argv[0]))[0]
out_dir = join("runs", name)
torch.manual_seed(1)
w = torch.randn(3, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
for step in range(3):
    loss = (w**2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    stdout.write(f"step {step}: loss {loss.item():.5f}\n")
print("checkpoint:", path.join(out_dir, "last.pt"))
print("stderr is a stream:", stderr is not stdout)
print(w)
