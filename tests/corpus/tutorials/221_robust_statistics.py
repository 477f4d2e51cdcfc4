# Median vs mean under an outlier: the median's gradient only touches the middle sample.
import torch

x = torch.tensor([2.1, 1.9, 2.4, 2.0, 50.0, 2.2, 1.8], requires_grad=True)

med = torch.median(x)
avg = x.mean()
print(med, avg)

med.backward()
print("median grad:", x.grad)

x.grad = None
avg.backward()
print("mean grad:  ", x.grad)

# Per-row medians of a batch, with the index of the chosen sample.
batch = torch.tensor([[3.0, 1.0, 2.0, 9.0], [4.0, 4.0, 0.5, 7.0]], requires_grad=True)
values, idx = batch.median(dim=1)
print(values, idx)
values.sum().backward()
print(batch.grad)

# Standard deviation and mean in one call.
s, m = torch.std_mean(batch, dim=1, keepdim=True)
z = (batch - m) / s
print(z)
print(torch.var_mean(batch, dim=0, correction=0))
