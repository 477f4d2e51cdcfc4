# A tensor made outside the traced code meets a traced value: fx records the tensor's
# own method (`c.mul(x)`), while a Python number keeps the operator (`2 - x`).
import torch
import torch.fx

offsets = torch.tensor([0.5, -1.0])


def shifted(x):
    a = offsets + x
    b = offsets * x - 2
    c = offsets / (x + 3)
    d = offsets ** x
    e = offsets // (x + 4)
    f = offsets % (x + 5)
    g = offsets > x
    return a, b, c, d, e, f, g, 2 - x


gm = torch.fx.symbolic_trace(shifted)
print(gm.code)
for out in gm(torch.tensor([[1.0, 2.0], [3.0, 0.5]])):
    print(out)

try:
    torch.fx.symbolic_trace(lambda x: max(x, 1))
except Exception as e:
    print(type(e).__name__, e)


def peak(x):
    return abs(x.max(dim=1).values) + x.min(dim=0).indices


gm = torch.fx.symbolic_trace(peak)
print(gm.graph)
print(gm.code)
print(gm(torch.tensor([[1.0, -2.0], [-3.0, 0.5]])))
