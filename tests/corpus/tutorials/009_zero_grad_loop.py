import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
lr = 0.1

for i in range(4):
    loss = ((x - 5) ** 2).sum()
    loss.backward()
    print(f"iter {i}: loss={loss.item():.4f} grad={x.grad.tolist()}")
    with torch.no_grad():
        x -= lr * x.grad
    x.grad.zero_()

print(x)
