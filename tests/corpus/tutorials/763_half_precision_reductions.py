# Sums, running sums, products, softmax and layer norm of float16 tensors: PyTorch adds
# half values in float and rounds each result once, so large entries neither overflow
# the intermediate sums nor lose their low bits on the way.
import torch

x = torch.tensor(
    [
        [310.5, -122.25, 40000.0, 29000.0],
        [0.125, 7.75, -33.5, 1024.0],
        [-5.5, 900.0, 12.0, -0.0625],
    ],
    dtype=torch.float16,
)
print(x.sum(0), x.sum(1), x.sum())
print(x.mean(0), x.mean(1))
print(x.cumsum(1))
print(x.cumsum(0))
print(x[1:].prod(1), x[:, :2].prod(0))
s = torch.tensor([[1.5, -2.25, 3.0, 0.5], [10.0, 9.5, -8.0, 0.0]], dtype=torch.float16)
print(torch.softmax(s, 1), torch.softmax(s, 0))
ln = torch.nn.LayerNorm(4).half()
print(ln(x))
print(torch.nn.functional.layer_norm(x, (4,), eps=1e-3))
