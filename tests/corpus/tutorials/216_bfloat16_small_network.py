import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)


class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 3)
        self.fc2 = nn.Linear(3, 1)

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))


net = TinyNet().to(torch.bfloat16)
x = torch.tensor([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]], dtype=torch.bfloat16)
y = torch.tensor([[1.0], [1.0], [0.0], [0.0]], dtype=torch.bfloat16)
opt = torch.optim.AdamW(net.parameters(), lr=0.05)
for epoch in range(40):
    opt.zero_grad()
    out = net(x)
    loss = ((out - y) ** 2).mean()
    loss.backward()
    opt.step()
    if epoch % 10 == 0:
        print(epoch, round(loss.item(), 4))
print(net(x))
print(net.fc1.weight.grad)
print(F.relu(net.fc1(x)))
