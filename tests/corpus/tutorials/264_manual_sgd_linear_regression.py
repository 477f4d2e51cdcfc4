import torch

torch.manual_seed(42)
true_w = torch.tensor([2.0, -3.4])
true_b = 4.2
X = torch.normal(0, 1, (100, 2))
y = X @ true_w + true_b + torch.normal(0, 0.01, (100,))
y = y.reshape(-1, 1)

w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)


def linreg(X, w, b):
    return torch.matmul(X, w) + b


def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


lr = 0.03
batch_size = 10
for epoch in range(3):
    for i in range(0, 100, batch_size):
        Xb, yb = X[i : i + batch_size], y[i : i + batch_size]
        l = squared_loss(linreg(Xb, w, b), yb)
        l.sum().backward()
        sgd([w, b], lr, batch_size)
    with torch.no_grad():
        train_l = squared_loss(linreg(X, w, b), y)
        print(f"epoch {epoch + 1}, loss {float(train_l.mean()):f}")

print(f"error in estimating w: {true_w - w.reshape(true_w.shape)}")
print(f"error in estimating b: {true_b - b}")
print(w.detach().squeeze().tolist(), b.item())
