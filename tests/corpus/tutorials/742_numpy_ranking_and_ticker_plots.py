# Ranking what a model got most wrong, the NumPy way a notebook does it: the losses go to NumPy,
# `np.argsort` orders them, `np.argpartition` picks the k largest without a full sort, and the
# plot cell (matplotlib with `matplotlib.ticker` for the axis) is kept as it was.
import math

import matplotlib.pyplot as plt
import matplotlib.ticker as ticker
import numpy as np
import torch

torch.manual_seed(5)
x = torch.linspace(-2, 2, 12).unsqueeze(1)
y = torch.sin(math.pi * x / 2)
model = torch.nn.Sequential(torch.nn.Linear(1, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for step in range(25):
    opt.zero_grad()
    per_point = (model(x) - y).pow(2).squeeze(1)
    per_point.mean().backward()
    opt.step()

losses = per_point.detach().numpy()
order = np.argsort(losses)
print("best three:", order[:3], "worst:", order[-1])
top = np.argpartition(losses, -3)[-3:]
print("three largest (any order):", np.sort(top), losses[np.sort(top)])
print("stable ranks:", np.argsort(np.round(losses, 1), kind="stable"))
print(np.sort(losses)[:4])

fig, ax = plt.subplots()
ax.plot(x.squeeze(1), losses, "o")
ax.xaxis.set_major_locator(ticker.MultipleLocator(0.5))
ax.yaxis.set_major_formatter(ticker.FormatStrFormatter("%.2f"))
plt.show()
