# "Learning PyTorch with Examples", the nn version: a third-order polynomial fit to sin(x)
# with nn.Sequential(Linear(3, 1), Flatten(0, 1)) and a manual update under no_grad.
import math

import torch

x = torch.linspace(-math.pi, math.pi, 500)
y = torch.sin(x)

p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
print(xx.shape)

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
loss_fn = torch.nn.MSELoss(reduction="sum")

learning_rate = 1e-5
for t in range(500):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, f"{loss.item():.4f}")
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad

linear_layer = model[0]
print(
    f"Result: y = {linear_layer.bias.item():.4f} + {linear_layer.weight[:, 0].item():.4f} x "
    f"+ {linear_layer.weight[:, 1].item():.4f} x^2 + {linear_layer.weight[:, 2].item():.4f} x^3"
)
