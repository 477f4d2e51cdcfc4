# nn.Sequential.insert moves modules up by their numbered keys: after add_module('head', ...)
# an insert before the end fails on the missing number, as in PyTorch.
import torch
import torch.nn as nn

seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
seq.insert(0, nn.Identity()).insert(-1, nn.Tanh()).insert(4, nn.Sigmoid())
print(seq)
print(seq(torch.ones(1, 2)).shape)
seq.add_module("head", nn.Linear(2, 1))
try:
    seq.insert(2, nn.GELU())
except KeyError as e:
    print("KeyError:", e)
print(list(seq._modules))
seq.insert(len(seq), nn.ELU())
print(list(seq._modules))
try:
    seq.insert(-10, nn.GELU())
except IndexError as e:
    print("IndexError:", e)
