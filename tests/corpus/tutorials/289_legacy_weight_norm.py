# Weight normalization as older code writes it: torch.nn.utils.weight_norm (a forward pre-hook
# recomputing weight from weight_g and weight_v), trained, then removed.
import torch
import torch.nn as nn

torch.manual_seed(0)
m = nn.utils.weight_norm(nn.Linear(3, 2))
print(
    [n for n, _ in m.named_parameters()], m.weight_g, m.weight_v.shape, m.weight.grad_fn.name(), m
)
x = torch.randn(4, 3)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
for i in range(3):
    opt.zero_grad()
    loss = m(x).pow(2).sum()
    loss.backward()
    opt.step()
    print(loss.item(), m.weight_g.grad.flatten().tolist())
print(m.weight)
nn.utils.remove_weight_norm(m)
print([n for n, _ in m.named_parameters()], m.weight)
try:
    nn.utils.remove_weight_norm(m)
except ValueError as e:
    print(e)
c = nn.utils.weight_norm(nn.Conv1d(2, 3, 3), dim=None)
print(c.weight_g, c.weight_v.shape)
try:
    nn.utils.weight_norm(c)
except RuntimeError as e:
    print(e)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.utils.weight_norm(nn.Linear(3, 3), name="weight", dim=1)

    def forward(self, x):
        return self.fc(x).tanh()


net = Net()
print(net(x).sum(), net.state_dict().keys())
