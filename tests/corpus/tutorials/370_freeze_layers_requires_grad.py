# Freezing the first layer with requires_grad_(False) (fine-tuning style): trainable counts,
# an optimizer over the trainable parameters only, frozen weights unchanged after training.
import torch
from torch import nn

torch.manual_seed(3)
model = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 4), nn.ReLU(), nn.Linear(4, 1))
total = sum(p.numel() for p in model.parameters())
print(f"total parameters: {total}")

model[0].requires_grad_(False)
for name, param in model.named_parameters():
    print(name, param.requires_grad)
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
print(f"trainable: {trainable}, frozen: {total - trainable}")

before = model[0].weight.clone()
before_last = model[4].weight.clone()
optimizer = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.05)
x = torch.randn(16, 6)
y = x[:, :1] * 0.5 - x[:, 1:2]
loss_fn = nn.MSELoss()
for step in range(20):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    if step % 5 == 4:
        print(step, f"{loss.item():.5f}")
print(torch.equal(before, model[0].weight), torch.equal(before_last, model[4].weight))
print(model[0].weight.grad, model[2].weight.grad is None)
print(len(optimizer.param_groups[0]["params"]))
for param in model.parameters():
    param.requires_grad = True
print(sum(p.requires_grad for p in model.parameters()))
