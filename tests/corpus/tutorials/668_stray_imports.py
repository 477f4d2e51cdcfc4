# A notebook's first cell imports more than the rest uses (an IDE's stray auto-import too):
# the program runs as long as what is imported is not used.
import csv
import glob
import inspect
import os
import pathlib
import statistics
import tempfile
import traceback
import types
from tkinter import Y

import torch
import torch.nn as nn

os.environ["KMP_DUPLICATE_LIB_OK"] = "True"  # (a Windows user's workaround)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
x = torch.randn(8, 3)
loss = model(x).pow(2).mean()
loss.backward()
print(f"loss {loss.item():.6f}")
print(model[0].weight.grad)
