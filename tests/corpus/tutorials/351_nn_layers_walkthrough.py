# The layers of a model one at a time: Flatten, Linear, ReLU, Sequential, Softmax.
import torch
from torch import nn

torch.manual_seed(3)
input_image = torch.rand(3, 5, 5)
print(input_image.size())

flatten = nn.Flatten()
flat_image = flatten(input_image)
print(flat_image.size())

layer1 = nn.Linear(in_features=5 * 5, out_features=6)
hidden1 = layer1(flat_image)
print(hidden1.size())

print(f"Before ReLU: {hidden1}\n\n")
hidden1 = nn.ReLU()(hidden1)
print(f"After ReLU: {hidden1}")

seq_modules = nn.Sequential(flatten, layer1, nn.ReLU(), nn.Linear(6, 4))
logits = seq_modules(input_image)
softmax = nn.Softmax(dim=1)
pred_probab = softmax(logits)
print(pred_probab)
print(pred_probab.sum(dim=1))
print(seq_modules[0], seq_modules[-1])
print(len(seq_modules))
