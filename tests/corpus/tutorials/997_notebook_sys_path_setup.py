# A book's notebook starts by putting the repository's folder on sys.path (for its helper
# package), then computes with torch alone.
import sys

sys.path.append("..")
sys.path.insert(0, "../utils")
import torch

print(sys.path[0], sys.path[-1])
true_w = torch.tensor([2.0, -3.4])
features = torch.arange(12, dtype=torch.float32).reshape(6, 2) / 6
labels = features @ true_w + 4.2
w = torch.zeros(2, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for epoch in range(3):
    loss = ((features @ w + b - labels) ** 2 / 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        b -= 0.1 * b.grad
        w.grad.zero_()
        b.grad.zero_()
    print(f"epoch {epoch + 1}, loss {loss:f}")
