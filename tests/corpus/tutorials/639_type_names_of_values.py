# What type(...) says of the values a tutorial inspects: Python's class names.
import numpy as np
import torch
import torch.nn as nn
x = torch.ones(2, requires_grad=True)
def f():
    pass
print(type(print).__name__, type(type(1)), type(type(1)).__name__, type(len).__name__)
print(type(f).__name__, type(torch.float32).__name__, type(x).__name__, type(nn.Linear(1, 1)).__name__)
print(type(x.max(0)).__name__, type(torch.Size([1])).__name__, type((x * 2).grad_fn).__name__)
print(type(x.numpy(force=True)).__name__ if False else type(x.detach().numpy()).__name__, type(1.5).__name__, type(None).__name__)
print(type(torch.device("cpu")).__name__, type(torch.float32), type(nn.Parameter(torch.ones(1))).__name__)
g = torch.Generator()
def gen():
    yield 1
r = np.random.default_rng(0)
print(type(g), type(g).__name__, type(gen()), type(gen()).__name__, type(r), type(r).__name__)
