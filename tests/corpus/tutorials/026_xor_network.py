import torch
import torch.nn as nn

torch.manual_seed(0)

X = torch.tensor([[0., 0.], [0., 1.], [1., 0.], [1., 1.]])
y = torch.tensor([[0.], [1.], [1.], [0.]])


class XOR(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(2, 4)
        self.out = nn.Linear(4, 1)

    def forward(self, x):
        return torch.sigmoid(self.out(torch.tanh(self.hidden(x))))


net = XOR()
opt = torch.optim.SGD(net.parameters(), lr=0.5, momentum=0.9)
criterion = nn.BCELoss()

for epoch in range(200):
    opt.zero_grad()
    loss = criterion(net(X), y)
    loss.backward()
    opt.step()
    if epoch % 50 == 0:
        print(f"epoch {epoch}: loss {loss.item():.4f}")

with torch.no_grad():
    print(net(X).round())
