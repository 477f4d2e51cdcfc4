import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = x * 2
h.retain_grad()
y = h ** 2
y.retain_grad()
loss = y.sum()
loss.backward()

print("x.grad:", x.grad)
print("h.grad:", h.grad)
print("y.grad:", y.grad)
print(h.is_leaf, h.retains_grad, x.retains_grad)
