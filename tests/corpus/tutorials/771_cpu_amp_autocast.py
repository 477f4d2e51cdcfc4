# Older mixed-precision code: torch.cpu.amp.autocast, switched off on this machine.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 2)
x = torch.randn(3, 4)
use_amp = False

with torch.cpu.amp.autocast(enabled=use_amp):
    out = model(x)
    loss = out.pow(2).mean()
print(out.dtype, loss)
loss.backward()
print(model.weight.grad)

ctx = torch.cpu.amp.autocast(enabled=False)
print(type(ctx))
print(isinstance(ctx, torch.autocast))
with ctx:
    print(torch.is_autocast_enabled("cpu"))


@torch.cpu.amp.autocast(enabled=False)
def forward(inp):
    return model(inp).sum()


print(forward(x))
print(torch.cpu.is_available(), torch.cpu.device_count())
