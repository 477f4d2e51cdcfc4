import torch

w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
data = [torch.tensor([0.5, 1.5, -1.0]), torch.tensor([2.0, 0.0, 1.0]), torch.tensor([-1.0, 1.0, 3.0])]

for step, xb in enumerate(data):
    loss = (w * xb).sum() ** 2
    loss.backward()
    print(f"step {step}: loss={loss.item():.4f} grad={w.grad.tolist()}")

print("accumulated:", w.grad)
w.grad.zero_()
print("after zero_:", w.grad)

for xb in data:
    ((w * xb).sum() ** 2 / len(data)).backward()
print(f"mean-of-losses gradient: {w.grad}")
g = w.grad
w.grad.mul_(0.5)
print(g is w.grad, g)
w.grad = None
print(w.grad)
