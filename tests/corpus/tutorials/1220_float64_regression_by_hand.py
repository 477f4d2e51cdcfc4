# A float64 linear model fitted by hand: matrix-vector products, a dot product and
# F.linear of one sample, printing the loss in full each step (as a numerics course does).
import torch
import torch.nn.functional as F

torch.manual_seed(3)
torch.set_default_dtype(torch.float64)

X = torch.randn(20, 7)
true_w = torch.tensor([0.5, -1.0, 2.0, 0.0, 1.5, -0.25, 0.75])
y = X @ true_w + 0.01 * torch.randn(20)

w = torch.zeros(7, requires_grad=True)
lr = 0.05
for step in range(6):
    pred = X @ w
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
    w.grad.zero_()
    print(step, loss.item())

print("w:", w.tolist())
print("dot:", torch.dot(w.detach(), true_w).item())

# one sample through F.linear, and a batch of odd width
W = torch.randn(5, 9)
b = torch.randn(5)
x1 = torch.randn(9)
print(F.linear(x1, W, b).tolist())
print((torch.randn(9)[None] @ W.t()).tolist())
print((torch.randn(13, 9) @ torch.randn(9)).tolist())
print((torch.randn(9) @ torch.randn(9, 4)).tolist())
