# Gradient clipping on a half-precision model: the total norm clip_grad_norm_ reports and the
# scaled gradients, for a few max_norm values.
import torch
import torch.nn as nn

torch.manual_seed(7)
model = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 1)).half()
x = torch.randn(5, 4).half()
for max_norm in (3 + 3 / 7, 1.0 / 3, 2.2, 0.7):
    model.zero_grad()
    for p in model.parameters():
        p.grad = (torch.randn(p.shape) * 3).half()
    total = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    print(f"max_norm={max_norm:.4f} total={total.item():.6f}")
    for name, p in model.named_parameters():
        print(name, p.grad)
