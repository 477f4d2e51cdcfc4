# `del` as training scripts write it: attributes of modules, names, items of containers
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.head = nn.Linear(3, 2)
        self.scale = nn.Parameter(torch.ones(3))
        self.register_buffer("running", torch.zeros(3))
        self.name = "enc"

    def forward(self, x):
        h = self.fc(x) * self.scale
        return self.head(h) if hasattr(self, "head") else h


torch.manual_seed(0)
enc = Encoder()
x = torch.randn(2, 4)
print(enc(x).shape)

# drop the classifier head: the module keeps working, and prints without it
del enc.head
print(enc)
print(enc(x).shape)
print([n for n, _ in enc.named_parameters()])
del enc.scale, enc.running
print(list(enc.state_dict().keys()))
delattr(enc, "name")
for attr in ("name", "head", "fc2"):
    try:
        delattr(enc, attr)
    except AttributeError as e:
        print("AttributeError:", e)
try:
    enc.scale
except AttributeError as e:
    print("AttributeError:", e)
enc.scale = nn.Parameter(torch.full((3,), 2.0))
print([n for n, _ in enc.named_parameters()])

# a functional weight: the parameter deleted, a tensor set in its place
lin = nn.Linear(3, 1)
w = torch.ones(1, 3, requires_grad=True)
del lin.weight
lin.weight = w * 2
out = lin(torch.ones(1, 3))
out.backward()
print(w.grad, list(lin.state_dict()))

# containers
seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Dropout(0.1), nn.Linear(2, 1))
del seq[2]
print(seq)
del seq[-2:]
print(seq)
layers = nn.ModuleList([nn.Tanh(), nn.ReLU(), nn.Sigmoid(), nn.GELU()])
del layers[::2]
print(layers)
heads = nn.ModuleDict({"cls": nn.Linear(2, 3), "reg": nn.Linear(2, 1)})
del heads["cls"]
print(heads)

# names and items
history = {"loss": [0.9, 0.5, 0.2], "acc": [0.1, 0.6, 0.8], "lr": [0.1] * 3}
del history["lr"]
del history["loss"][0]
print(history)
losses = list(range(10))
del losses[:3], losses[-1]
print(losses)
big = torch.randn(100, 100)
del big
try:
    print(big.shape)
except NameError as e:
    print("NameError:", e)
