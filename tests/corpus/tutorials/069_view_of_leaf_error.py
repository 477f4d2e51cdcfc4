import torch

x = torch.zeros(4, requires_grad=True)
v = x[:2]
print(v.is_leaf, v.requires_grad)
try:
    v.mul_(2)
except RuntimeError as e:
    print(e)

y = torch.ones(2, 2, requires_grad=True)
try:
    y.view(4).zero_()
except RuntimeError as e:
    print(e)

try:
    y.t().fill_(0.5)
except RuntimeError as e:
    print(e)
