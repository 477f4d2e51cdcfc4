# Fitting a complex weight by gradient descent: y = w * x with complex w, a real squared
# error loss, and the update w -= lr * w.grad (the conjugate Wirtinger gradient points
# downhill, as PyTorch's docs explain).
import torch

torch.manual_seed(0)
true_w = torch.tensor(0.8 - 0.6j)
x = torch.randn(16, dtype=torch.cfloat)
y = true_w * x + 0.01 * torch.randn(16, dtype=torch.cfloat)

w = torch.zeros((), dtype=torch.cfloat, requires_grad=True)
lr = 0.1
for step in range(30):
    loss = ((w * x - y).abs() ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
    w.grad.zero_()
    if step % 10 == 0:
        print(f"step {step}: loss {loss.item():.5f}, w = {w.item():.4f}")
print(w)
print(f"|w - true_w| = {(w - true_w).abs().item():.4f}")
print(torch.angle(w.detach()), w.detach().abs())
