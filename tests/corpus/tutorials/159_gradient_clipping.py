import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 2)
x = torch.tensor([[10.0, -20.0, 30.0]])
loss = model(x).pow(2).sum()
loss.backward()

before = torch.sqrt(sum((p.grad ** 2).sum() for p in model.parameters()))
print(f"grad norm before: {before.item():.4f}")
total_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
print(f"returned norm: {total_norm.item():.4f}")
after = torch.sqrt(sum((p.grad ** 2).sum() for p in model.parameters()))
print(f"grad norm after: {after.item():.4f}")

torch.nn.utils.clip_grad_value_(model.parameters(), clip_value=0.1)
print(model.weight.grad)
print(model.bias.grad)
