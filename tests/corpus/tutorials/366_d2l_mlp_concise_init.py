# d2l's concise MLP: Sequential with Flatten, init_weights applied through net.apply,
# checked by type(m) == nn.Linear; the initial weights' spread and a few training steps.
import torch
from torch import nn

torch.manual_seed(2)
net = nn.Sequential(nn.Flatten(), nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 3))


def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)


net.apply(init_weights)
print(net)
print(f"{net[1].weight.std().item():.5f}", net[1].bias.shape)

X = torch.rand(24, 4, 4)
y = torch.randint(0, 3, (24,))
loss = nn.CrossEntropyLoss(reduction="none")
trainer = torch.optim.SGD(net.parameters(), lr=0.1)
for epoch in range(5):
    l = loss(net(X), y)
    trainer.zero_grad()
    l.mean().backward()
    trainer.step()
    print(f"epoch {epoch + 1}, loss {l.mean():.6f}")
