# Batch normalisation after a layer with a bias: the bias's gradient is pure rounding noise
# (the normalisation removes it), which Adam turns into steps of its own size, so the
# running statistics and the evaluation-mode outputs show every bit of the backward kernel.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(11)
mlp = nn.Sequential(nn.Linear(6, 20), nn.BatchNorm1d(20), nn.ReLU(), nn.Linear(20, 3))
x = torch.randn(32, 6)
y = torch.randint(0, 3, (32,))
opt = torch.optim.Adam(mlp.parameters(), lr=0.01)
for step in range(8):
    opt.zero_grad()
    loss = F.cross_entropy(mlp(x), y)
    loss.backward()
    opt.step()
    if step % 2 == 0:
        print(f"step {step}: loss {loss.item():.6f}")
print("bias grad before the norm:", mlp[0].bias.grad[:4])
print("running mean:", mlp[1].running_mean[:5])
mlp.eval()
with torch.no_grad():
    print(mlp(x[:4]))

# a small CNN with BatchNorm2d
cnn = nn.Sequential(
    nn.Conv2d(2, 5, 3, padding=1), nn.BatchNorm2d(5), nn.ReLU(), nn.Flatten(), nn.Linear(5 * 36, 2)
)
imgs = torch.randn(3, 2, 6, 6)
opt2 = torch.optim.AdamW(cnn.parameters(), lr=0.005)
for step in range(4):
    opt2.zero_grad()
    out = cnn(imgs)
    loss = out.pow(2).mean()
    loss.backward()
    opt2.step()
print(cnn[1].weight.grad)
print(cnn[0].bias.grad)
print(cnn[1].running_mean)

# what the node looks like
h = nn.BatchNorm1d(4)(torch.randn(5, 4, requires_grad=True))
print(
    h.grad_fn.name(),
    [type(f).__name__ if f is not None else None for f, _ in h.grad_fn.next_functions],
)

# gradients of the plain sum: zero in exact arithmetic, rounding noise in float32
z = torch.randn(6, 3, requires_grad=True)
nn.BatchNorm1d(3)(z).sum().backward()
print(z.grad)

# a second derivative through batch norm (a gradient penalty)
w = torch.randn(8, 3, requires_grad=True)
bn = nn.BatchNorm1d(3)
out = (bn(w) ** 3).sum()
(g,) = torch.autograd.grad(out, w, create_graph=True)
pen = g.pow(2).sum()
print(pen)
