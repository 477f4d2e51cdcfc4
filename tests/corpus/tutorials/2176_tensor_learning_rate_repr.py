# Keeping the learning rate in a tensor (so a schedule can change it in place) and printing
# the optimizer: its repr puts each group value in an f-string.
import torch
import torch.nn as nn

net = nn.Linear(3, 1)
lr = torch.tensor(0.01)
opt = torch.optim.Adam(net.parameters(), lr=lr)
print(opt)
print(opt.param_groups[0]["lr"])
sgd = torch.optim.SGD(net.parameters(), lr=torch.tensor(0.1, dtype=torch.float64), momentum=0.9)
print(sgd)
print(f"lr now {sgd.param_groups[0]['lr']}")
