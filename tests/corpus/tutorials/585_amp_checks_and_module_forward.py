# Code that checks AMP objects and a module whose forward runs under autocast, as model
# repositories write it so that one file runs with and without a GPU.
import torch
import torch.nn as nn

use_amp = torch.cuda.is_available()
scaler = torch.cuda.amp.GradScaler(enabled=use_amp)
print(isinstance(scaler, torch.amp.GradScaler), isinstance(scaler, torch.cuda.amp.GradScaler))
ctx = torch.autocast("cuda", enabled=use_amp)
print(isinstance(ctx, torch.autocast), isinstance(ctx, torch.cuda.amp.autocast))
print(torch.is_autocast_cpu_enabled(), torch.get_autocast_gpu_dtype())
print(torch.amp.is_autocast_available("cpu"), torch.cuda.is_available())


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    @torch.cuda.amp.autocast(enabled=use_amp)
    def forward(self, x):
        print("  inside forward, autocast:", torch.is_autocast_enabled())
        return self.fc(x).relu()


torch.manual_seed(1)
net = Net()
opt = torch.optim.Adam(net.parameters(), lr=0.01)
x = torch.randn(4, 3)
for step in range(3):
    opt.zero_grad()
    with ctx:
        loss = net(x).pow(2).mean()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    print(step, round(loss.item(), 6), scaler.get_scale())
print(net.fc.bias)
