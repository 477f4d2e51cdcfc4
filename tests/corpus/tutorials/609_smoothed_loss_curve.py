# Training a tiny regression and smoothing its loss curve with a moving average, as the
# plotting cell of a notebook does with np.convolve before drawing it.
import numpy as np
import torch

torch.manual_seed(11)
x = torch.linspace(-1, 1, 16).unsqueeze(1)
y = 3 * x - 0.5 + 0.1 * torch.randn(16, 1)
w = torch.zeros(1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w, b], lr=0.1)
losses = []
for epoch in range(12):
    opt.zero_grad()
    loss = ((x * w + b - y) ** 2).mean()
    loss.backward()
    opt.step()
    losses.append(loss.item())
smooth = np.convolve(losses, [0.25] * 4, mode="valid")
print(np.round(smooth, 4))
print(np.convolve([1.0, 2.0, 3.0], [0.5, 0.5]))
print(np.convolve(np.array(losses[:3]), [1, -1], "same"))
print(w, b)
