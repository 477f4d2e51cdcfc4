# A loss module file that imports the package from itself, as some repositories do
# (`from torch import torch, nn`): torch.torch is torch.
import torch.nn.functional as F
from torch import torch, nn


class MarginRanking(nn.Module):
    def __init__(self, margin=2.0):
        super().__init__()
        self.margin = margin

    def forward(self, a, p, n):
        d_pos = F.pairwise_distance(a, p)
        d_neg = F.pairwise_distance(a, n)
        return torch.clamp(d_pos - d_neg + self.margin, min=0.0).mean()


print(torch.torch is torch, torch.torch.torch.nn is nn)
torch.manual_seed(3)
net = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 3))
opt = torch.optim.SGD(net.parameters(), lr=0.2)
anchor = torch.randn(6, 5)
positive = anchor + 0.05 * torch.randn(6, 5)
negative = torch.torch.randn(6, 5)
crit = MarginRanking()
for step in range(4):
    loss = crit(net(anchor), net(positive), net(negative))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6))
print(net[0].bias.grad)
print(torch.torch.nn.functional.triplet_margin_loss(net(anchor), net(positive), net(negative), margin=2.0))
