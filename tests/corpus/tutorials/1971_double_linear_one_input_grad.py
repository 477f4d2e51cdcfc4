# Fitting y = 3x - 1 with a float64 network whose first layer takes one feature:
# nn.Linear(1, 16)'s weight gradient is (the upstream gradient).t() @ x, x a column of its
# own. Gradients printed in full after one backward pass, then a few SGD steps.
import torch
import torch.nn as nn

torch.manual_seed(3)
torch.set_default_dtype(torch.float64)

x = torch.linspace(-2, 2, 50).unsqueeze(1)
y = 3 * x - 1 + 0.1 * torch.randn(50, 1)
net = nn.Sequential(nn.Linear(1, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.01)

loss = nn.functional.mse_loss(net(x), y)
loss.backward()
print(net[0].weight.grad.flatten().tolist()[:6])
print(net[2].weight.grad.flatten().tolist()[:6])

for step in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(net(x), y)
    loss.backward()
    opt.step()
    print(step, loss.item())
print(net[0].weight.flatten().tolist()[:4])
