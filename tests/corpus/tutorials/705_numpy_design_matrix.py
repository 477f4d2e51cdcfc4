# A design matrix with a bias column (np.c_), a polynomial fit and a few data summaries, then the
# same fit with torch.
import numpy as np
import torch

np.random.seed(5)
x = np.linspace(-1.0, 1.0, 9)
y = 2.0 * x ** 2 - x + 0.1 * np.random.normal(size=x.shape)
Phi = np.c_[np.ones_like(x), x, x ** 2]
print(Phi.shape, np.r_[0:3, 10, [20, 30]])
print(np.round(np.polyfit(x, y, 2), 5))
counts, edges = np.histogram(y, bins=4)
print(counts, np.round(edges, 4))
print(np.bincount(np.digitize(y, edges[1:-1])))
print(np.round(np.cov(x, y), 5))
print(np.identity(2) * 3, np.logspace(-2, 0, 3), np.kron(np.eye(2), np.ones((1, 2))))
buf = np.empty((2, 3))
buf.fill(0.5)
print(buf)

P = torch.tensor(Phi, dtype=torch.float32)
t = torch.tensor(y, dtype=torch.float32)
w = torch.zeros(3, requires_grad=True)
opt = torch.optim.Adam([w], lr=0.1)
for _ in range(300):
    opt.zero_grad()
    loss = ((P @ w - t) ** 2).mean()
    loss.backward()
    opt.step()
print(w.detach().numpy().round(3), round(loss.item(), 5))
