import torch
from torch import nn

# Layer sizes read from boolean flags: a bool is an int in Python, and PyTorch's layers
# take it where it is not the first size of a parameter's shape.
config = {"single_input": True, "hidden": 3}

torch.manual_seed(0)
fc = nn.Linear(config["single_input"], config["hidden"])
print(fc)
print(fc.in_features, fc.weight.shape)
x = torch.linspace(-1.0, 1.0, 4, dtype=torch.float64).unsqueeze(1)
print(fc.double()(x).shape)

conv = nn.Conv1d(in_channels=True, out_channels=2, kernel_size=True)
print(conv)
print(conv.kernel_size, conv.weight.shape)

emb = nn.Embedding(5, True)
print(emb, emb.weight.shape)

bil = nn.Bilinear(True, 2, 1)
print(bil, bil.weight.shape)

# First in the weight's shape, or a parameter's only size: torch.empty's TypeError.
for make in (
    lambda: nn.Linear(3, True),
    lambda: nn.Embedding(True, 4),
    lambda: nn.Conv2d(1, True, 3),
    lambda: nn.BatchNorm1d(True),
    lambda: nn.PReLU(True),
):
    try:
        make()
    except TypeError as e:
        print("TypeError:", e)

# Training still works with such a layer.
w_true = torch.tensor([[2.0], [-1.0], [0.5]], dtype=torch.float64)
y = x @ w_true.T
opt = torch.optim.SGD(fc.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    loss = ((fc(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6))
