# A recurrent net reading a one-feature sequence (sin) to predict another (cos): the input
# projection of each step is a product of inner size 1 plus the bias (nn.LSTM left out:
# PyTorch runs a float32 LSTM through oneDNN, a few ulps apart, see the README).
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(1)


class SeqNet(nn.Module):
    def __init__(self, cell):
        super().__init__()
        self.rnn = cell(input_size=1, hidden_size=8, batch_first=True)
        self.head = nn.Linear(8, 1)

    def forward(self, x, h=None):
        out, h = self.rnn(x, h)
        return self.head(out), h


steps = np.linspace(0, np.pi, 12, dtype=np.float32, endpoint=False)
x = torch.from_numpy(np.sin(steps)[None, :, None])
y = torch.from_numpy(np.cos(steps)[None, :, None])
for cell in (nn.RNN, nn.GRU):
    net = SeqNet(cell)
    opt = torch.optim.Adam(net.parameters(), lr=0.02)
    for epoch in range(4):
        pred, _ = net(x)
        loss = nn.functional.mse_loss(pred, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(cell.__name__, epoch, loss.item())
    print(pred[0, :3, 0])

# A batch of three phases (batch_first: the module reads a transposed view of it), and a
# linear layer applied to such a view directly.
phases = torch.tensor([0.0, 0.5, 1.0])
xb = torch.sin(torch.from_numpy(steps)[None, :] + phases[:, None])[..., None]
yb = torch.cos(torch.from_numpy(steps)[None, :] + phases[:, None])[..., None]
net = SeqNet(nn.RNN)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for epoch in range(3):
    pred, h = net(xb)
    loss = nn.functional.mse_loss(pred, yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("batch", epoch, loss.item())
proj = nn.Linear(1, 4)
z = proj(xb.transpose(0, 1))
print(z.grad_fn.name(), z[3, 1])
