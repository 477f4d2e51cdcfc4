# StepLR: the learning rate printed every epoch with get_last_lr(), scheduler.step() after
# optimizer.step(), and the learning rate read back from param_groups.
import torch
from torch import nn, optim
from torch.optim.lr_scheduler import StepLR

torch.manual_seed(0)
model = nn.Linear(2, 1)
optimizer = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scheduler = StepLR(optimizer, step_size=3, gamma=0.5)
x = torch.randn(8, 2)
y = x.sum(dim=1, keepdim=True)
for epoch in range(10):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    scheduler.step()
    print(epoch, scheduler.get_last_lr(), optimizer.param_groups[0]["lr"], f"{loss.item():.5f}")
print(scheduler.state_dict())
