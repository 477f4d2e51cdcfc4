# Data made with NumPy's random functions, then fitted with torch, as forum answers write it.
import numpy as np
import torch

np.random.seed(0)
torch.manual_seed(0)
X = np.random.rand(50, 1) * 4 - 2
noise = np.random.normal(0, 0.1, size=(50, 1))
Y = 3 * X ** 2 - X + 0.5 + noise
print(X[:3, 0])

x = torch.from_numpy(X).float()
y = torch.from_numpy(Y).float()
coef = torch.zeros(3, requires_grad=True)
opt = torch.optim.Adam([coef], lr=0.1)
for step in range(200):
    pred = coef[0] * x ** 2 + coef[1] * x + coef[2]
    loss = torch.mean((pred - y) ** 2)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(step, round(loss.item(), 4))
print(coef)

idx = np.random.permutation(5)
print(idx, np.random.randint(0, 3, size=4), np.random.choice([10, 20, 30], 2))
print(torch.tensor(np.random.randn(2, 3)))
