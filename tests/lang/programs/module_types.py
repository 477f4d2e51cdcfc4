import torch
import torch.nn as nn
net = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Tanh(), nn.Sigmoid(), nn.Dropout(0.1), nn.Identity(), nn.Flatten())
for m in net:
    print(type(m), isinstance(m, nn.ReLU), type(m) == nn.ReLU, type(m) is nn.Linear, type(m).__name__, isinstance(m, (nn.Tanh, nn.Linear)), isinstance(m, nn.Module))
print(type(net), nn.Linear, nn.ReLU, type(net)(nn.ReLU()))
print(type(nn.MSELoss()), type(nn.CrossEntropyLoss()), type(nn.LayerNorm(3)), type(nn.Embedding(3, 2)))
print(type(nn.ModuleList()), type(nn.ModuleDict()), type(nn.Bilinear(2, 2, 1)), type(nn.Parameter(torch.ones(1))))
print(type(nn.Softmax(dim=0)), type(nn.LogSoftmax(dim=0)), type(nn.GELU()), type(nn.ELU()), type(nn.LeakyReLU()), type(nn.Softplus()))
print(type(nn.BCELoss()), type(nn.NLLLoss()), type(nn.SiLU()), type(nn.L1Loss()), type(nn.BCEWithLogitsLoss()), type(nn.LogSigmoid()))
class Linear(nn.Module):
    def forward(self, x):
        return x
print(isinstance(Linear(), nn.Linear), isinstance(nn.Linear(1, 1), Linear), type(Linear()) == nn.Linear)
print(len({type(m) for m in [nn.ReLU(), nn.ReLU(), nn.Tanh()]}))
print(nn.Linear.__name__, nn.ReLU.__name__)
layers = [m for m in net if isinstance(m, (nn.Linear, nn.Dropout))]
print(len(layers), [type(m).__name__ for m in layers], type(layers[0]) in (nn.Linear, nn.ReLU))
for c in (torch.Tensor, nn.ReLU, nn.Linear, nn.Parameter, int):
    try:
        print(c.foo)
    except AttributeError as e:
        print(e)
