import torch

X = torch.tensor([[0.5, 1.0], [1.0, 0.2], [-0.3, -1.0], [-1.2, 0.4], [2.0, 1.5], [-0.7, -0.8]])
y = torch.tensor([1.0, 1.0, 0.0, 0.0, 1.0, 0.0])

w = torch.zeros(2, requires_grad=True)
b = torch.zeros(1, requires_grad=True)

for epoch in range(50):
    p = torch.sigmoid(X @ w + b)
    loss = torch.nn.functional.binary_cross_entropy(p, y)
    loss.backward()
    with torch.no_grad():
        w -= 0.5 * w.grad
        b -= 0.5 * b.grad
        w.grad.zero_()
        b.grad.zero_()
    if epoch % 10 == 0:
        print("epoch %d loss %.4f" % (epoch, loss.item()))

print(w)
print(b)
pred = (torch.sigmoid(X @ w + b) > 0.5).float()
print("accuracy:", (pred == y).float().mean().item())
