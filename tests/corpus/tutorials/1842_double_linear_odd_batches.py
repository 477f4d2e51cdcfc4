# A double-precision regression head on small batches whose sizes are not multiples of 4:
# nn.Linear outputs and gradients printed in full, as in gradient-checking tutorials.
import torch
import torch.nn as nn

torch.manual_seed(7)
torch.set_default_dtype(torch.float64)

for batch, n_in, n_out in [(5, 10, 12), (7, 16, 13), (6, 9, 14), (9, 20, 15), (10, 33, 25)]:
    layer = nn.Linear(n_in, n_out)
    x = torch.randn(batch, n_in, requires_grad=True)
    y = layer(x)
    print(f"batch {batch}, {n_in} -> {n_out}: last row of y = {y[-1].tolist()}")
    loss = (y ** 2).mean()
    loss.backward()
    print("  loss", loss.item())
    print("  x.grad last row", x.grad[-1].tolist())

# a matrix product with the weights written out as x @ W.T + b
W = torch.randn(13, 6)
b = torch.randn(13)
inputs = torch.randn(5, 6)
print((inputs @ W.T + b)[4])
print(torch.nn.functional.linear(inputs, W, b)[4])
