# A linear model written by hand in double precision, as numerical-methods notes do it:
# features times a weight matrix (no nn.Linear), a mean squared error, the gradient by
# autograd, and plain gradient descent; the losses and weights printed to every digit.
import torch

torch.manual_seed(3)
X = torch.randn(40, 6, dtype=torch.float64)
true_W = torch.randn(6, 13, dtype=torch.float64)
Y = X @ true_W + 0.01 * torch.randn(40, 13, dtype=torch.float64)

W = torch.zeros(6, 13, dtype=torch.float64, requires_grad=True)
b = torch.zeros(13, dtype=torch.float64, requires_grad=True)
for step in range(30):
    pred = X @ W + b
    loss = ((pred - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        W -= 0.1 * W.grad
        b -= 0.1 * b.grad
    W.grad.zero_()
    b.grad.zero_()
    if step % 10 == 0:
        print(step, loss.item())

print("final", ((X @ W + b - Y) ** 2).mean().item())
print(W[0].tolist())
print(W.grad is not None, b.tolist()[:3])

# a few products of other shapes: three rows, fourteen columns, a long inner size
A = torch.randn(3, 50, dtype=torch.float64)
B = torch.randn(50, 14, dtype=torch.float64)
print((A @ B)[:, -3:].tolist())
C = torch.randn(7, 120, dtype=torch.float64)
D = torch.randn(120, 25, dtype=torch.float64)
P = C @ D
print(P[6].tolist()[:5], P[:, 24].tolist())
