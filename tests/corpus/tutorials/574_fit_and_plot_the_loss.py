# A notebook cell as pasted: fit a line, keep the losses, plot them with matplotlib (gradcli
# draws nothing: the plotting calls run and do nothing), print the fit with NumPy rounding.
import numpy as np
import torch
import torch.nn as nn
import matplotlib.pyplot as plt

torch.manual_seed(1)
X = torch.linspace(-2, 2, 40).unsqueeze(1)
y = 3 * X - 0.5 + 0.2 * torch.randn(X.shape)

model = nn.Linear(1, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loss_fn = nn.MSELoss()
losses = []
for epoch in range(30):
    optimizer.zero_grad()
    loss = loss_fn(model(X), y)
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
print(f"loss after {len(losses)} epochs: {losses[-1]:.6f}")

plt.figure(figsize=(8, 4))
plt.subplot(1, 2, 1)
plt.plot(losses, label="train loss")
plt.xlabel("epoch")
plt.ylabel("MSE")
plt.legend()
plt.subplot(1, 2, 2)
with torch.no_grad():
    pred = model(X)
plt.scatter(X.numpy(), y.numpy(), s=8)
(line,) = plt.plot(X.numpy(), pred.numpy(), "r-")
line.set_linewidth(2)
plt.title(f"w={model.weight.item():.3f}")
plt.tight_layout()
plt.show()

fig, axes = plt.subplots(2, 2, figsize=(6, 6))
for i, ax in enumerate(axes.flatten()):
    ax.hist(model(X).detach().numpy()[:, 0] + i, bins=5)
    ax.set_title(f"panel {i}")
axes[1, 1].grid(True)
fig.suptitle("predictions")
plt.close(fig)

print(np.round(pred[:4, 0].numpy(), 3))
print(np.round(model.weight.detach().numpy(), 2), np.round(model.bias.item(), 4))
try:
    plt.plot(model(X))
except RuntimeError as e:
    print("RuntimeError:", e)
