# Two Gaussian clusters drawn with NumPy, a logistic-regression fit in torch, and its decision
# values on a grid made with np.mgrid; the loss curve smoothed with np.correlate.
import numpy as np
import torch

np.random.seed(3)
a = np.random.multivariate_normal([-1.0, 0.0], [[0.5, 0.1], [0.1, 0.3]], 20)
b = np.random.multivariate_normal(mean=[1.0, 0.5], cov=[[0.4, 0.0], [0.0, 0.4]], size=20)
X = np.vstack([a, b])
y = np.r_[np.zeros(20), np.ones(20)]
X1 = np.insert(X, 0, 1.0, axis=1)  # a bias column in front
print(X1.shape, X1[:2])

Xt = torch.tensor(X1, dtype=torch.float32)
yt = torch.tensor(y, dtype=torch.float32)
w = torch.zeros(3, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.5)
losses = []
for step in range(30):
    opt.zero_grad()
    loss = torch.nn.functional.binary_cross_entropy_with_logits(Xt @ w, yt)
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(w)
print(w.grad)

smooth = np.correlate(np.array(losses), np.ones(5) / 5, mode="valid")
print(len(smooth), np.round(smooth[:3], 4))

gx, gy = np.mgrid[-2:2:5j, -1:1:3j]
grid = np.c_[np.ones(gx.size), gx.ravel(), gy.ravel()]
with torch.no_grad():
    p = torch.sigmoid(torch.from_numpy(grid).float() @ w)
print(p.reshape(5, 3))
rows, cols = np.ogrid[0:2, 0:3]
print(rows + cols)

mix = np.random.dirichlet([2.0, 2.0, 2.0])
print(mix, mix.sum().round(6))
counts = np.random.multinomial(12, [0.5, 0.25, 0.25], size=2)
print(counts)
rng = np.random.default_rng(7)
print(rng.multivariate_normal([0.0, 0.0], np.eye(2), size=2))
padded = np.pad(np.array(losses[:3]), (2, 1), mode="edge")
print(np.round(padded, 4))
print(np.pad(np.arange(4).reshape(2, 2), 1))
# each row of the grid through a function of the program's
row_norms = np.apply_along_axis(lambda r: np.sqrt((r ** 2).sum()), 1, grid[:, 1:])
print(np.round(row_norms[:4], 4), np.apply_along_axis(np.argmax, 0, X1).tolist())
