# The same polynomial, trained by torch.optim.RMSprop instead of a manual update.
import math

import torch

x = torch.linspace(-math.pi, math.pi, 400)
y = torch.sin(x)
xx = x.unsqueeze(-1).pow(torch.tensor([1, 2, 3]))

torch.manual_seed(1)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
loss_fn = torch.nn.MSELoss(reduction="sum")

learning_rate = 1e-3
optimizer = torch.optim.RMSprop(model.parameters(), lr=learning_rate)
print(optimizer)
for t in range(400):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, round(loss.item(), 3))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

linear_layer = model[0]
b = linear_layer.bias.item()
w = linear_layer.weight.detach()[0]
print(f"Result: y = {b:.3f} + {w[0]:.3f} x + {w[1]:.3f} x^2 + {w[2]:.3f} x^3")
print(sorted(optimizer.state_dict()["state"][0].keys()))
