# NumPy helpers data-preparation code reaches for (linspace without the end point, logical
# masks, atleast_1d), and nn.init bounds given as 0-d tensors.
import math

import numpy as np
import torch
import torch.nn as nn

t = np.linspace(0, 2 * np.pi, 8, endpoint=False, dtype=np.float32)
print(t)
samples, step = np.linspace(-1.0, 1.0, 5, retstep=True)
print(samples, step)
print(np.linspace(0, 1, 4, endpoint=False))

labels = np.array([0, 1, 1, 2, 0, 2])
is_zero = labels == 0
print(np.logical_not(is_zero))
print(np.where(np.logical_not(is_zero))[0])
print(np.logical_and(labels > 0, labels < 2), np.logical_or(is_zero, labels == 2))
print(np.logical_xor(is_zero, [True, False, False, False, True, True]))
print(np.atleast_1d(3.5), np.atleast_1d([1, 2]), np.atleast_1d(1, [2.0, 3.0]))

torch.manual_seed(0)
layer = nn.Linear(4, 3)
fan_in = layer.weight.shape[1]
nn.init.normal_(layer.weight, mean=0.0, std=1.0 / torch.sqrt(torch.tensor(fan_in, dtype=torch.float32)))
print(layer.weight)
bound = torch.tensor(1 / math.sqrt(fan_in))
nn.init.uniform_(layer.bias, a=-bound, b=bound)
print(layer.bias)
for std in [torch.tensor([0.5]), torch.tensor(0.5, requires_grad=True)]:
    try:
        nn.init.normal_(layer.weight, std=std)
    except TypeError as err:
        print("TypeError:", err)
