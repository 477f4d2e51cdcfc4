import torch
import torch.nn as nn
import torch.nn.functional as F

# A 2-channel batch whose channels are tiny: a small eps keeps the division finite
torch.manual_seed(3)
x = torch.randn(6, 2, 4) * 1e-3

# F.batch_norm checks eps before it normalises: it must be positive while training...
for eps in (0, 0.0, -1e-5):
    try:
        F.batch_norm(x, torch.zeros(2), torch.ones(2), training=True, eps=eps)
    except ValueError as e:
        print("training:", e)

# ...and only non-negative in evaluation mode, where eps=0 divides by sqrt(running_var)
y = F.batch_norm(x, torch.zeros(2), torch.ones(2), training=False, eps=0)
print(torch.equal(y, x))
try:
    F.batch_norm(x, torch.zeros(2), torch.ones(2), training=False, eps=-0.5)
except ValueError as e:
    print("eval:", e)

# every nn.BatchNorm layer calls F.batch_norm: eps=0 is refused in train mode only
bn = nn.BatchNorm1d(2, eps=0.0, momentum=1.0)
try:
    bn(x)
except ValueError as e:
    print("BatchNorm1d(eps=0.0):", e)
bn.eval()
print(bn(x).shape, bn.running_mean, bn.running_var)

bn2d = nn.BatchNorm2d(3, eps=-1.0)
bn2d.eval()
try:
    bn2d(torch.ones(2, 3, 2, 2))
except ValueError as e:
    print("BatchNorm2d(eps=-1.0):", e)

# torch.batch_norm (the function F.batch_norm calls) and F.instance_norm do not check eps
w = torch.ones(2, requires_grad=True)
b = torch.zeros(2, requires_grad=True)
z = torch.batch_norm(x, w, b, None, None, True, 0.1, 0.0, False)
z.pow(2).sum().backward()
print(z.mean(dim=(0, 2)), w.grad, b.grad)
print(F.instance_norm(x, eps=0.0).std(dim=2, unbiased=False))

# the layer keeps eps as it was given: an int 0 is shown as 0
bn_int = nn.BatchNorm2d(2, eps=0)
print(bn_int)
try:
    bn_int(torch.ones(3, 2, 2, 2))
except ValueError as e:
    print(e)
