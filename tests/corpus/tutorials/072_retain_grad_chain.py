import torch

a = torch.tensor(2.0, requires_grad=True)
b = a * 3
c = b.exp()
d = c / 2
for t in (b, c, d):
    t.retain_grad()
d.backward()

print(f"dd/dd = {d.grad}")
print(f"dd/dc = {c.grad}")
print(f"dd/db = {b.grad.item():.4f}")
print(f"dd/da = {a.grad.item():.4f}")
