# Feeding a convolution data of another dtype: images from NumPy arrive as float64, pixel
# values as integers. PyTorch checks the bias first, before the shapes, then the kernel's
# dtypes after them.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 4 * 4, 2))
image = np.linspace(0.0, 1.0, 36).reshape(1, 1, 6, 6)
attempts = [
    ("from numpy", lambda: net(torch.from_numpy(image))),
    ("pixels", lambda: net(torch.arange(36).reshape(1, 1, 6, 6))),
    ("bool mask", lambda: net(torch.ones(1, 1, 6, 6, dtype=torch.bool))),
    ("wrong channels too", lambda: net(torch.zeros(1, 3, 6, 6, dtype=torch.float64))),
    ("no bias", lambda: F.conv1d(torch.ones(1, 2, 5, dtype=torch.float64), torch.ones(3, 2, 2))),
    ("no bias, wrong channels", lambda: F.conv1d(torch.ones(1, 1, 5, dtype=torch.int64), torch.ones(3, 2, 2))),
    ("half", lambda: nn.Conv1d(2, 3, 2)(torch.ones(1, 2, 5, dtype=torch.float16))),
    ("transposed", lambda: nn.ConvTranspose2d(1, 2, 2)(torch.ones(1, 1, 3, 3, dtype=torch.float64))),
    ("transposed int", lambda: nn.ConvTranspose1d(1, 2, 2)(torch.ones(1, 1, 3, dtype=torch.int32))),
]
for name, call in attempts:
    try:
        call()
    except (RuntimeError, NotImplementedError) as e:
        print(f"{name}: {type(e).__name__}: {e}")

out = net(torch.from_numpy(image).float())
print(out)
out.sum().backward()
print(net[0].bias.grad)
