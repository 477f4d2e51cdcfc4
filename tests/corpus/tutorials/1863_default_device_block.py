# Building a model under a default-device block, as the "changing default device" recipe does
# (with the CPU, the device this build has).
import torch

device = torch.device("cpu")
torch.manual_seed(0)
with device:
    net = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Tanh(), torch.nn.Linear(3, 1))
    batch = torch.randn(5, 4, dtype=torch.float64)
    print(torch.get_default_device(), batch.device, net[0].weight.device)
print(net(batch.float()).shape, next(net.parameters()).device)

with torch.device("cpu") as d, torch.no_grad():
    print(d, repr(d), d.type, d == "cpu")
    out = net(torch.ones(2, 4))
print(out.requires_grad, out.device)

for name in ("cuda", "cuda:1"):
    try:
        with torch.device(name):
            torch.zeros(3)
    except AssertionError as e:
        print(name, "->", e)

torch.set_default_device("cpu")
print(torch.arange(3, dtype=torch.float64).device)
