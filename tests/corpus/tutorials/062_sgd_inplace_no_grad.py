import torch

x = torch.tensor([2.0, -3.0, 1.0], requires_grad=True)
target = torch.tensor([0.0, 1.0, 0.5])
lr = 0.25

for step in range(4):
    loss = ((x - target) ** 2).sum()
    loss.backward()
    with torch.no_grad():
        x -= lr * x.grad
    print(f"step {step}: loss {loss.item():.4f}, x = {x}")
    x.grad.zero_()

print(x.is_leaf, x.requires_grad, x.grad_fn)
