import torch

X = torch.tensor([[2.0, 1.0], [1.0, 3.0], [-1.0, -2.0], [-2.0, 0.5]])
y = torch.tensor([1.0, 1.0, -1.0, -1.0])
w = torch.zeros(2, requires_grad=True)
b = torch.zeros(1, requires_grad=True)

for epoch in range(4):
    margins = y * (X @ w + b)
    loss = torch.clamp(1 - margins, min=0).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        b -= 0.1 * b.grad
    w.grad.zero_()
    b.grad.zero_()
    errors = int((margins <= 0).sum())
    print("epoch {}: hinge={:.4f} errors={} w=[{}]".format(
        epoch, loss.item(), errors, ", ".join("%.3f" % v for v in w.tolist())))
