# Multi-output linear regression in double precision, fitted by plain gradient descent
# (the kind of float64 check scripts use to compare with a closed-form answer).
import torch

torch.manual_seed(5)
torch.set_default_dtype(torch.float64)

X = torch.randn(200, 40)
true_W = torch.randn(40, 3)
Y = X @ true_W + 0.01 * torch.randn(200, 3)

W = torch.zeros(40, 3, requires_grad=True)
lr = 0.1
for step in range(40):
    loss = ((X @ W - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        W -= lr * W.grad
        W.grad.zero_()
    if step % 10 == 0:
        print(step, loss.item())

print("final loss", loss.item())
print((W - true_W).abs().max().item())
print(W.detach()[0].tolist())
