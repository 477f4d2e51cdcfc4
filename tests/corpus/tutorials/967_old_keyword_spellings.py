# Keyword spellings from PyTorch 0.3/0.4 snippets, and what PyTorch 2.13 does with each.
import torch
import torch.nn as nn
from torch.autograd import Variable

x = Variable(torch.ones(2), requires_grad=True)
y = (x ** 2 + 3).sum()

# retain_variables was renamed retain_graph: the old name is an error now.
try:
    y.backward(retain_variables=True)
except TypeError as e:
    print("TypeError:", e)
y.backward(retain_graph=True)
y.backward()
print(x.grad)

# size_average / reduce still work (with a deprecation warning): the mean, or the sum.
pred = Variable(torch.tensor([1.0, 2.0, 4.0]), requires_grad=True)
target = torch.tensor([1.5, 2.0, 3.0])
print(nn.MSELoss(size_average=True)(pred, target), nn.MSELoss(size_average=False)(pred, target))
print(nn.L1Loss(reduce=False)(pred, target))

# only_inputs is deprecated and ignored.
z = (pred * pred).sum()
g, = torch.autograd.grad(z, pred, only_inputs=True)
print(g)

# An unknown keyword is a TypeError, as for any Python function.
try:
    torch.autograd.grad(z, pred, keep_graph=True)
except TypeError as e:
    print("TypeError:", e)
