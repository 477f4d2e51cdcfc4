import torch

# y = 2x + 1 with a little structure, no randomness
X = torch.linspace(0, 1, 10)
Y = 2 * X + 1

w = torch.tensor(0.0, requires_grad=True)
b = torch.tensor(0.0, requires_grad=True)
learning_rate = 0.5

for epoch in range(30):
    y_pred = w * X + b
    loss = ((y_pred - Y) ** 2).mean()
    loss.backward()

    with torch.no_grad():
        w -= learning_rate * w.grad
        b -= learning_rate * b.grad

    w.grad.zero_()
    b.grad.zero_()

    if epoch % 10 == 9:
        print(f"epoch {epoch + 1}: w = {w.item():.3f}, b = {b.item():.3f}, loss = {loss.item():.6f}")

print(w, b)
