# Training data made with NumPy in float32 (sine waves of random amplitude and phase, a tanh
# feature and a projection by a matrix product), then a small regression on it: NumPy's own
# float32 sin, tanh, exp and matrix products decide the data the network sees.
import numpy as np
import torch
import torch.nn as nn

np.random.seed(1337)
torch.manual_seed(0)

amplitude = np.random.uniform(0.1, 5.0)
phase = np.random.uniform(0, np.pi)
x = np.random.uniform(-5.0, 5.0, size=(64, 1)).astype("float32")
y = amplitude * np.sin(x + phase)
print(x.dtype, y.dtype, y[:4].ravel().tolist())

features = np.concatenate([x, np.tanh(x), np.exp(x / 5), np.cos(2 * x)], axis=1)
projection = np.random.randn(4, 3).astype(np.float32)
projected = features @ projection
print(projected.dtype, projected[:2].tolist())
print(np.dot(features[0], features[1]), np.matmul(features[:2], projection).tolist())

X = torch.from_numpy(projected)
Y = torch.from_numpy(y)
model = nn.Linear(3, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for step in range(30):
    loss = nn.functional.mse_loss(model(X), Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(step, loss.item())
print(model.weight.data, model.bias.data)
errors = (model(X) - Y).detach().numpy()
print(float(np.mean(errors ** 2)), np.abs(errors).max())
