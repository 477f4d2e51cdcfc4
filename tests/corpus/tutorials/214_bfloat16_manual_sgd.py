import torch

# fit y = 2x + 1 with a hand-written gradient step, all in bfloat16
xs = torch.linspace(-1, 1, 8, dtype=torch.bfloat16)
ys = 2 * xs + 1
w = torch.zeros(1, dtype=torch.bfloat16, requires_grad=True)
b = torch.zeros(1, dtype=torch.bfloat16, requires_grad=True)
lr = 0.2
for step in range(30):
    pred = w * xs + b
    loss = ((pred - ys) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
    w.grad.zero_()
    b.grad.zero_()
    if step % 10 == 9:
        print(step, loss.item(), w.item(), b.item())
print(w, b)

# the same updates on .data, as older tutorials write them
v = torch.tensor([3.0], dtype=torch.bfloat16, requires_grad=True)
for _ in range(5):
    f = (v - 1) ** 2
    f.backward()
    v.data -= 0.3 * v.grad.data
    v.grad.data.zero_()
print(v)
