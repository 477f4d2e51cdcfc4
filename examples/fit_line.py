# Fit y = 2x + 1 with torch.optim.SGD (momentum) and then Adam: PyTorch's float32 steps.
import torch

x = torch.tensor([0.0, 1.0, 2.0, 3.0])
y = 2 * x + 1
w = torch.zeros(1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w, b], lr=0.05, momentum=0.9)
for step in range(60):
    opt.zero_grad()
    loss = ((w * x + b - y) ** 2).mean()
    loss.backward()
    opt.step()
    if step % 20 == 19:
        print(step + 1, loss.item())
opt = torch.optim.Adam([w, b], lr=0.01)
for _ in range(20):
    opt.zero_grad()
    loss = ((w * x + b - y) ** 2).mean()
    loss.backward()
    opt.step()
loss = ((w * x + b - y) ** 2).mean()
print(loss.item(), w, b)
