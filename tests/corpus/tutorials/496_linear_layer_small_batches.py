# A tiny classifier head: forward and backward of nn.Linear on small batches,
# printed in full precision to compare runs.
import torch
import torch.nn as nn

torch.manual_seed(7)
torch.set_printoptions(precision=8)

head = nn.Linear(6, 3)
features = torch.randn(2, 6)

logits = head(features)
print("logits:", logits)

loss = logits.pow(2).mean()
loss.backward()
print("loss:", loss.item())
print("weight grad:", head.weight.grad)
print("bias grad:", head.bias.grad)

# one sample at a time (inference)
with torch.no_grad():
    single = torch.randn(6)
    print("single sample:", head(single))
    print("as a batch of one:", head(single.unsqueeze(0)))

# a regression unit: nn.Linear(5, 1) trained by hand for a few steps
torch.manual_seed(0)
unit = nn.Linear(5, 1)
x = torch.randn(8, 5)
y = x.sum(dim=1, keepdim=True) * 0.5 + 1.0
opt = torch.optim.SGD(unit.parameters(), lr=0.05)
for step in range(5):
    opt.zero_grad()
    pred = unit(x)
    mse = ((pred - y) ** 2).mean()
    mse.backward()
    opt.step()
    print(f"step {step}: loss={mse.item():.10f}")
print("learned weight:", unit.weight.data)
print("learned bias:", unit.bias.data)
