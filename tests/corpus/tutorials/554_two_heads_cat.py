# Two regression heads whose outputs are joined with torch.cat: each head is an
# nn.Linear(k, 1), and its gradient comes back as a column of the joined gradient.
import torch
import torch.nn as nn

torch.manual_seed(3)

features = torch.randn(96, 21)
importance = torch.rand(96, 2)  # how much each sample and head counts
targets = torch.cat(
    [features[:, :3].sum(1, keepdim=True), features[:, 3:].mean(1, keepdim=True)], dim=1
)


class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.first = nn.Linear(21, 1)
        self.second = nn.Linear(21, 1)

    def forward(self, x):
        return torch.cat([self.first(x), self.second(x)], dim=1)


model = TwoHeads()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(30):
    opt.zero_grad()
    loss = (importance * (model(features) - targets) ** 2).mean()
    loss.backward()
    if step == 0:
        print("first gradients", model.first.weight.grad.tolist())
    opt.step()
    if step % 5 == 0:
        print(step, loss.item())

print(model.first.weight.grad.tolist())
print(model.second.weight.grad.tolist())
print(model.first.weight.tolist())
print(f"final loss {loss.item():.10f}")
