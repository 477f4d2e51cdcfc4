# A small MLP trained with Adam on two blobs; cross-entropy loss and accuracy every 25 steps.
import torch
import torch.nn as nn

torch.manual_seed(1)
a = torch.randn(40, 2) + torch.tensor([2.0, 2.0])
b = torch.randn(40, 2) - torch.tensor([2.0, 2.0])
x = torch.cat([a, b])
labels = torch.cat([torch.zeros(40, dtype=torch.long), torch.ones(40, dtype=torch.long)])

model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2))
criterion = nn.CrossEntropyLoss()
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for step in range(100):
    opt.zero_grad()
    logits = model(x)
    loss = criterion(logits, labels)
    loss.backward()
    opt.step()
    if step % 25 == 24:
        accuracy = (logits.argmax(dim=1) == labels).float().mean()
        print(step + 1, round(loss.item(), 3), accuracy.item())
print(opt.state_dict()["param_groups"][0]["betas"], opt.param_groups[0]["params"][1])
