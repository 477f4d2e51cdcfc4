import torch

torch.manual_seed(0)
X = torch.randn(8, 3)
y = X @ torch.tensor([1.0, -2.0, 0.5]) + 0.3
w = torch.zeros(3, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
accum_steps = 4
lr = 0.1

for epoch in range(3):
    for i, (xb, yb) in enumerate(zip(X.split(2), y.split(2))):
        pred = xb @ w + b
        loss = ((pred - yb) ** 2).mean() / accum_steps
        loss.backward()
        if (i + 1) % accum_steps == 0:
            with torch.no_grad():
                w -= lr * w.grad
                b -= lr * b.grad
            w.grad.zero_()
            b.grad.zero_()
    full = ((X @ w + b - y) ** 2).mean()
    print(f"epoch {epoch}: loss {full.item():.6f}")
print(w, b)
