# Gradient clipping in a training loop: clip_grad_norm_ returns the total norm before
# clipping; the norm after it; clip_grad_value_ as well.
import torch
from torch import nn

torch.manual_seed(31)
model = nn.Sequential(nn.Linear(3, 6), nn.Tanh(), nn.Linear(6, 1))
x = torch.randn(12, 3) * 5
y = torch.randn(12, 1) * 10
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(6):
    optimizer.zero_grad()
    loss = nn.MSELoss()(model(x), y)
    loss.backward()
    total_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    after = torch.sqrt(sum(p.grad.pow(2).sum() for p in model.parameters()))
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f} norm {total_norm:.4f} clipped {after:.4f}")

optimizer.zero_grad()
nn.MSELoss()(model(x), y).backward()
nn.utils.clip_grad_value_(model.parameters(), clip_value=0.5)
print(model[2].weight.grad)
print(max(p.grad.abs().max().item() for p in model.parameters()))
n = nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.1, norm_type=float("inf"))
print(f"{n:.4f}", type(n).__name__)
