# Make a regression data set with NumPy the way many tutorials do: a shuffled index splits
# train from validation, a boolean mask labels the quadrants, the arrays become tensors that
# share their memory, and NumPy's own float32 numbers are printed along the way.
import numpy as np
import torch

np.random.seed(7)
N = 20
x = np.random.rand(N, 1)
y = 1 + 2 * x + 0.1 * np.random.randn(N, 1)
idx = np.arange(N)
np.random.shuffle(idx)
train_idx, val_idx = idx[: int(N * 0.8)], idx[int(N * 0.8) :]
x_train, y_train = x[train_idx], y[train_idx]
print(train_idx[:5], x_train.shape, y[val_idx].ravel().round(3))

pts = np.random.uniform(-1, 1, size=(8, 2))
labels = np.ones(len(pts))
labels[pts[:, 0] * pts[:, 1] < 0] = 0
print(labels, pts[labels == 1].shape)

xt = torch.as_tensor(x_train).float()
shared = torch.as_tensor(x_train)
x_train += 1  # in place: the float64 tensor that shares the array sees it, the copy does not
print(shared[:2].ravel(), xt[:2].ravel())

w = torch.zeros(1, requires_grad=True)
for step in range(3):
    loss = ((xt * w - torch.as_tensor(y_train).float()) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.5 * w.grad
    w.grad.zero_()
    arr = loss.detach().numpy()
    print(step, arr, "%.4f" % arr, w.detach().numpy()[0], [w.detach().numpy()[0]])

p = torch.tensor([0.7, 0.2, 0.1]).numpy()
first = p[0]
print(first, first * 2, 1 - first, -first + np.log(3.0), type(first), p.sum(), np.dot(p, p))
print(np.abs([-3, 4]), np.power(0.9, 2), np.array([[1, 2], [3, 4]]).dot([1, 1]))
