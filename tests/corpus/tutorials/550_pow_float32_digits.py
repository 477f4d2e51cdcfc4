# Powers of float32 tensors, printed with every digit: a grid of bases and exponents,
# a tensor raised to a fractional number, a number raised to a tensor, and broadcasting.
import math

import torch

bases = torch.linspace(0.05, 6.0, 45)
exps = torch.linspace(-4.0, 4.0, 45)

grid = bases**exps
print(grid.tolist())
print(torch.pow(bases, 2.5).tolist())
print(torch.pow(bases, -1.3).tolist())
print((2.0**exps).tolist())
print((math.e**exps).tolist())

# broadcasting: a column of bases against a row of exponents
table = bases[:6].unsqueeze(1) ** exps[:40].unsqueeze(0)
print(table.shape)
for row in table:
    print(row.tolist())

# negative bases with whole-number exponents keep their sign
neg = torch.linspace(-3.0, -0.5, 11)
whole = torch.tensor([3.0, 2.0, 5.0, -1.0, -3.0, 7.0, 0.0, 1.0, 4.0, -2.0, 9.0])
print((neg**whole).tolist())

# a long linspace: the sum shows every element's last bit
x = torch.linspace(-math.pi, math.pi, 2000)
w = torch.pow(x.abs() + 0.25, x)
print(w.sum().item(), w.max().item(), w[1990:].tolist())
print(torch.pow(x.abs() + 0.25, 1.7).sum().item())
