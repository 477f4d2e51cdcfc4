import torch
import torch.nn as nn

torch.manual_seed(0)
bil = nn.Bilinear(2, 3, 1)
print(bil)
print(bil.weight.shape, bil.bias.shape)

x1 = torch.tensor([[1.0, 0.5]])
x2 = torch.tensor([[0.0, 1.0, -1.0]])
out = bil(x1, x2)
print(out)
out.sum().backward()
print(bil.weight.grad)
print(torch.einsum('bi,oij,bj->bo', x1, bil.weight, x2) + bil.bias)
