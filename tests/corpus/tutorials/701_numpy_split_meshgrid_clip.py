# NumPy helpers training scripts reach for around their tensors: np.split of a dataset into
# mini-batches (the number of pieces computed with /), np.meshgrid for a grid of starting
# points, np.clip of an action to an environment's low/high arrays, and ndarray.dot.
import numpy as np
import torch

np.random.seed(0)
torch.manual_seed(0)

data = np.random.normal(0, 1, (24, 1))
batches = np.split(data, len(data) / 8)
print(type(batches).__name__, len(batches), batches[0].shape, batches[-1][:2].ravel().tolist())
print([b.shape for b in np.split(np.arange(10.0), [3, 7])], np.split(data, 2, axis=0)[1].shape)


def himmelblau(x):
    return (x[0] ** 2 + x[1] - 11) ** 2 + (x[0] + x[1] ** 2 - 7) ** 2


gx, gy = np.meshgrid(np.arange(-4, 4, 2.0), np.arange(-2, 3, 2.0))
print(gx.shape, gy[:, 0].tolist(), float(himmelblau([gx, gy]).min()))
starts = np.stack([gx.ravel(), gy.ravel()], axis=1)
best = []
for s in starts[::3]:
    p = torch.tensor(s, dtype=torch.float32, requires_grad=True)
    opt = torch.optim.Adam([p], lr=0.1)
    for _ in range(50):
        loss = himmelblau(p)
        opt.zero_grad()
        loss.backward()
        opt.step()
    best.append((round(loss.item(), 4), [round(v, 3) for v in p.tolist()]))
print(best)

low = np.array([-1.0, -0.5], dtype=np.float32)
high = np.array([1.0, 0.5], dtype=np.float32)
for _ in range(3):
    action = torch.distributions.Normal(torch.zeros(2), torch.ones(2)).sample()
    clipped = np.clip(action.numpy(), low, high)
    print(action.numpy(), clipped, clipped.dtype)
print(np.clip(data[:4, 0], [-0.5, -0.1, 0.0, 0.1], 0.5), data[:3, 0].dot(data[3:6, 0]))
