# Measure the gradient norm once, log it, then clip with it (the two halves of
# clip_grad_norm_, as newer training loops write them).
import torch
import torch.nn as nn
from torch.nn.utils import get_total_norm, clip_grads_with_norm_

torch.manual_seed(7)
model = nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.5)
x = torch.randn(8, 4)
labels = torch.tensor([0, 1, 1, 0, 1, 0, 0, 1])

for step in range(3):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(x), labels)
    loss.backward()
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    total = get_total_norm(grads, norm_type=2.0)
    print(f"step {step} loss {loss.item():.4f} grad norm {total.item():.4f}")
    clip_grads_with_norm_(model.parameters(), max_norm=0.25, total_norm=total)
    print("  after clipping:", get_total_norm(grads))
    opt.step()

print(get_total_norm([]), get_total_norm(torch.tensor([3.0, -4.0]), norm_type="inf"))
