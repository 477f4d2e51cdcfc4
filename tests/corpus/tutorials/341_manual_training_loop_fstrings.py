import torch

torch.manual_seed(42)
x = torch.linspace(-1, 1, 20).unsqueeze(1)
y = 3 * x - 0.5 + 0.1 * torch.randn(20, 1)

w = torch.randn(1, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.5
for step in range(31):
    y_pred = x @ w + b
    loss = ((y_pred - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
        w.grad.zero_()
        b.grad.zero_()
    if step % 10 == 0:
        print(f"step {step:3d} | loss {loss.item():.6f} | w {w.item():+.4f} | b {b.item():+.4f}")
print(w, b, sep="\n")
