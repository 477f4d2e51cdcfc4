# A small regression fit that keeps its loss history in a NumPy array and prints it the way
# notebooks do after np.set_printoptions(suppress=True, precision=4).
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

np.set_printoptions(suppress=True, precision=4)
torch.manual_seed(3)

x = torch.linspace(-1, 1, 20).unsqueeze(1)
y = 3 * x**2 - 0.5 * x + 0.1 * torch.randn(20, 1)

net = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))
opt = optim.SGD(net.parameters(), lr=0.05)
loss_fn = nn.MSELoss()

history = np.zeros((0, 2))
for epoch in range(300):
    opt.zero_grad()
    loss = loss_fn(net(x), y)
    loss.backward()
    opt.step()
    if epoch % 50 == 0:
        history = np.vstack((history, np.array([epoch, loss.item()])))

print("history:")
print(history)
print("first layer weight grad:", net[0].weight.grad.numpy().ravel())
print("tiny and large together:", np.array([1e-6, 2.5, 12345.678]))

np.set_printoptions(precision=2, floatmode="fixed", sign="+")
print(net[2].weight.detach().numpy())
print(f"bias {net[2].bias.detach().numpy()}")
opts = np.get_printoptions()
print(opts["precision"], opts["suppress"], opts["floatmode"], opts["sign"])

np.set_printoptions(threshold=sys.maxsize, sign="-", precision=3, floatmode="maxprec")
print(np.arange(0, 1.2, 0.1).reshape(3, 4))
try:
    np.set_printoptions(sign="x")
except ValueError as e:
    print("ValueError:", e)
