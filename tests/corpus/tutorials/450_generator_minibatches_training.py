# Minibatch SGD with a hand-written data iterator: a generator that shuffles the indices once
# per epoch and yields (features, labels) batches, as in "linear regression from scratch".
import torch

torch.manual_seed(42)
n, d = 64, 3
X = torch.randn(n, d)
true_w = torch.tensor([[1.5], [-2.0], [0.5]])
y = X @ true_w + 0.3 + 0.05 * torch.randn(n, 1)


def batches(X, y, batch_size, shuffle=True):
    """Yield minibatches; the last one may be smaller."""
    idx = torch.randperm(len(X)) if shuffle else torch.arange(len(X))
    for start in range(0, len(X), batch_size):
        sel = idx[start : start + batch_size]
        yield X[sel], y[sel]


w = torch.zeros(d, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.1

first = next(batches(X, y, 5, shuffle=False))
print("first batch shapes:", first[0].shape, first[1].shape)
print("number of batches:", len(list(batches(X, y, 10))))

for epoch in range(4):
    seen = 0
    for step, (xb, yb) in enumerate(batches(X, y, 16)):
        loss = ((xb @ w + b - yb) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
            b -= lr * b.grad
            w.grad.zero_()
            b.grad.zero_()
        seen += len(xb)
    with torch.no_grad():
        full = ((X @ w + b - y) ** 2).mean()
    print(f"epoch {epoch}: steps {step + 1}, seen {seen}, loss {full.item():.5f}")
print(w.detach().flatten(), b.detach())
