# Lazy layers: the module's dtype chosen before the first batch, and a checkpoint restored
# into a freshly built lazy model before it has seen any data.
import torch
import torch.nn as nn

torch.manual_seed(0)


def build():
    return nn.Sequential(
        nn.LazyConv1d(4, kernel_size=3),
        nn.LazyBatchNorm1d(),
        nn.ReLU(),
        nn.Flatten(),
        nn.LazyLinear(2),
    )


net = build().double()
print(net[0].weight, net[1].running_mean)
batch = torch.randn(5, 3, 8, dtype=torch.float64)
out = net(batch)
print(out.dtype, out.shape)
print({name: (tuple(p.shape), p.dtype) for name, p in net.named_parameters()})
print(net[1].running_var.dtype, net[1].num_batches_tracked)
print(net)

head = nn.LazyLinear(3).to(torch.float64)
print(head(torch.ones(2, 4, dtype=torch.float64)))
try:
    nn.LazyLinear(3).double()(torch.ones(2, 4))
except RuntimeError as e:
    print("RuntimeError:", e)

# restore into a new lazy model, before any forward pass
saved = net.state_dict()
fresh = build().double()
print(fresh.load_state_dict(saved))
print(fresh[4].weight.shape, fresh[4].weight.dtype, fresh[0])
fresh.eval()
net.eval()
print(torch.equal(fresh(batch), net(batch)), fresh[0], fresh[4])

small = nn.LazyLinear(2)
print(small.load_state_dict(nn.Linear(3, 2).state_dict()), small)
try:
    small(torch.ones(1, 5))
except AssertionError as e:
    print("AssertionError:", e)

both = nn.LazyLinear(2)
print(both.load_state_dict(nn.LazyLinear(2).state_dict()), both.weight)
try:
    nn.Linear(3, 2).load_state_dict(nn.LazyLinear(2).state_dict())
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
part = nn.LazyLinear(2)
print(part.load_state_dict({"weight": torch.zeros(2, 3)}, strict=False))
try:
    part(torch.ones(1, 3))
except AttributeError as e:
    print("AttributeError:", e)
try:
    nn.Linear(2, 2).load_state_dict(nn.Linear(3, 2).state_dict())
except RuntimeError as e:
    print(e)
try:
    nn.LazyBatchNorm1d().type(torch.float64)
except ValueError as e:
    print("ValueError:", str(e)[:80])
