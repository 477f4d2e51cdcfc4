import torch

w = torch.tensor([0.5, -1.25, 2.0], requires_grad=True)
n_epochs = 3
for epoch in range(n_epochs):
    loss = (w ** 2).sum()
    loss.backward()
    with torch.no_grad():
        w -= 0.25 * w.grad
    w.grad.zero_()
    print("Epoch %d/%d - loss: %.4f" % (epoch + 1, n_epochs, loss.item()))

print("weights: %s" % w.data)
print("first weight: %8.3f|" % w[0].item())
print("%-6s|%6s|" % ("left", "right"))
print("%5.1f%%" % 42.123)
print("%e" % 12345.678)
print("%g and %g" % (0.0001, 123456789.0))
print("%i items, %r" % (len(w), "text"))
