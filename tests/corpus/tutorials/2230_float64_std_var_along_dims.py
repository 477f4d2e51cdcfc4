# Standard deviation and variance along a dimension of float64 tensors, to the last digit:
# normalising each row by hand and measuring the spread again, columns, several dims at once.
import torch

torch.manual_seed(7)
rows = torch.randn(4, 6, dtype=torch.float64) * 3.0 + 2.0

centred = rows - rows.mean(dim=1, keepdim=True)
scaled = centred / rows.std(dim=1, keepdim=True)
print(scaled.std(dim=1))
print(scaled.std(dim=1).tolist())
print(scaled.var(dim=1, correction=0).tolist())

print(rows.var(dim=0).tolist())
print(rows.std(dim=0, unbiased=False).tolist())

cube = torch.arange(60, dtype=torch.float64).reshape(3, 4, 5).sin() * 10
print(cube.var(dim=(0, 2)).tolist())
print(torch.std(cube, dim=[1, 2], keepdim=True).flatten().tolist())

variance, mean = torch.var_mean(rows, dim=1)
print(variance.tolist())
print(mean.tolist())
spread, centre = torch.std_mean(rows.t(), dim=0)
print(spread.tolist())

w = rows.clone().requires_grad_()
w.std(dim=1).sum().backward()
print(w.grad[0].tolist())
