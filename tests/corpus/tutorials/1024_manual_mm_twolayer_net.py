# A two-layer network fitted to random data with plain tensor products (the "warm-up" style:
# x.mm(w1), a ReLU by clamp, .mm(w2)), the gradients by autograd and the update by hand.
import torch

torch.manual_seed(0)

batch, d_in, hidden, d_out = 64, 1000, 100, 10
x = torch.randn(batch, d_in)
y = torch.randn(batch, d_out)
w1 = torch.randn(d_in, hidden, requires_grad=True)
w2 = torch.randn(hidden, d_out, requires_grad=True)

lr = 1e-6
for step in range(25):
    h = x.mm(w1).clamp(min=0)
    y_pred = h.mm(w2)
    loss = (y_pred - y).pow(2).sum()
    if step % 5 == 0:
        print(step, loss.item())
    loss.backward()
    if step == 24:
        print(w1.grad[:2, :3].tolist())
        print(w2.grad[0])
    with torch.no_grad():
        w1 -= lr * w1.grad
        w2 -= lr * w2.grad
        w1.grad.zero_()
        w2.grad.zero_()

print(w1[0, :4])
print(w2[:2])
