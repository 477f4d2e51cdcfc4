import torch
import torch.nn as nn

torch.manual_seed(1)

net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
print(net[0].weight.dtype)

# halve the memory of the parameters
before = sum(p.numel() * p.element_size() for p in net.parameters())
net = net.bfloat16()
after = sum(p.numel() * p.element_size() for p in net.parameters())
print(before, after)
for name, p in net.named_parameters():
    print(name, p.dtype, tuple(p.shape))

x = torch.randn(2, 4, dtype=torch.bfloat16)
out = net(x)
print(out)
print(out.dtype, out.grad_fn.name())

# the state dict holds bfloat16 tensors
sd = net.state_dict()
print(list(sd.keys()))
print(sd["2.bias"])

# and back to float32
net.float()
print(net[2].bias, net[2].bias.dtype)
print(net(x.float()))
