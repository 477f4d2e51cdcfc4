import torch

torch.manual_seed(0)
X = torch.randn(8, 2)
true_w = torch.tensor([[2.0], [-3.4]])
y = X @ true_w + 4.2
print(X.shape, y.shape, y[:3])

w = torch.zeros(2, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
losses = []
for epoch in range(3):
    for i in range(0, len(X), 4):
        xb, yb = X[i:i + 4], y[i:i + 4]
        l = ((xb @ w + b - yb) ** 2 / 2).mean()
        l.backward()
        with torch.no_grad():
            w -= 0.1 * w.grad
            b -= 0.1 * b.grad
            w.grad.zero_()
            b.grad.zero_()
    with torch.no_grad():
        train_l = ((X @ w + b - y) ** 2 / 2).mean()
        losses.append(train_l)
    print(f"epoch {epoch + 1}, loss {float(train_l):f}")
print(torch.stack(losses))
print(w.reshape(true_w.shape) - true_w, b - 4.2)
print([round(v.item(), 4) for v in losses])
print(torch.tensor(losses))
acc = (torch.tensor([0.2, 0.8, 0.6]).round() == torch.tensor([0.0, 1.0, 0.0])).float().mean()
print(acc, f"{acc:.2%}", f"{acc.item():.3f}")
