# saved_tensors_hooks around a small network: inner hooks win, save_on_cpu, disabling
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
inp = torch.randn(2, 3)
log = []


def tag(name):
    def pack(t):
        log.append((name, "pack", tuple(t.shape)))
        return t

    def unpack(t):
        log.append((name, "unpack", tuple(t.shape)))
        return t

    return pack, unpack


with torch.autograd.graph.saved_tensors_hooks(*tag("outer")):
    hidden = model[1](model[0](inp))
    with torch.autograd.graph.saved_tensors_hooks(*tag("inner")):
        out = model[2](hidden)
    loss = out.pow(2).mean()
for entry in log:
    print(entry)
log.clear()
loss.backward()
for entry in log:
    print(entry)
print(model[0].weight.grad)

with torch.autograd.graph.save_on_cpu(pin_memory=False):
    loss2 = model(inp).sum()
model.zero_grad()
loss2.backward()
print(model[2].bias.grad)

with torch.autograd.graph.disable_saved_tensors_hooks("saved tensors hooks are off here"):
    try:
        with torch.autograd.graph.saved_tensors_hooks(*tag("never")):
            pass
    except RuntimeError as e:
        print("RuntimeError:", e)
print(log)
