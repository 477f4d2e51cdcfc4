# Orthogonal initialisation (Saxe et al.) for a small MLP and a recurrent weight: look at the
# weights it produces and check that they really are orthogonal.
import torch
import torch.nn as nn

torch.manual_seed(42)
torch.set_printoptions(precision=6)

# the Kaggle-style quick look: a wide, a square and a tall matrix
for shape in [(3, 5), (4, 4), (8, 3)]:
    w = torch.empty(*shape)
    nn.init.orthogonal_(w)
    print(shape, w)

# an MLP whose hidden layers start orthogonal, with a ReLU gain
mlp = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 3))
for layer in mlp:
    if isinstance(layer, nn.Linear):
        nn.init.orthogonal_(layer.weight, gain=nn.init.calculate_gain("relu"))
        nn.init.zeros_(layer.bias)
print(mlp[2].weight[:3])
print("column norms:", mlp[2].weight.norm(dim=0)[:4])
x = torch.randn(5, 12)
print("output:", mlp(x))

# a recurrent weight (hidden x hidden) and a 4-gate LSTM-like stack initialised per gate
hidden = 24
w_hh = torch.empty(hidden, hidden)
nn.init.orthogonal_(w_hh)
print("w_hh row 0:", w_hh[0])
print("orthogonal?", torch.allclose(w_hh @ w_hh.T, torch.eye(hidden), atol=1e-5))
gates = torch.empty(4 * 10, 10)
for k in range(4):
    nn.init.orthogonal_(gates[k * 10 : (k + 1) * 10])
print("gate 2:", gates[20:23])
print("sum of all gates:", gates.sum().item())
