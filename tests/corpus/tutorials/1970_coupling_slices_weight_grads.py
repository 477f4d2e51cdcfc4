# An affine coupling layer on 2-D points: the two halves are every other column (x[:, ::2],
# x[:, 1::2]), each net a Linear(1, H) on one half, and the result put back together with
# torch.cat. The gradients reaching the last Linear(H, 1) of the shift net are a slice of
# cat's gradient, and the first layers see strided columns: PyTorch's weight gradients
# printed with all their float32 digits.
import torch
import torch.nn as nn

torch.manual_seed(7)
torch.set_printoptions(precision=10)


class Coupling(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.scale = nn.Sequential(nn.Linear(1, hidden), nn.Tanh(), nn.Linear(hidden, 1))
        self.shift = nn.Sequential(nn.Linear(1, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, x):
        a, b = x[:, ::2], x[:, 1::2]
        s = self.scale(a)
        b = b * torch.exp(s) + self.shift(a)
        return torch.cat([a, b], dim=1), s.sum(dim=1)


layer = Coupling(hidden=20)
points = torch.randn(40, 2)
z, log_det = layer(points)
nll = (0.5 * z.pow(2).sum(dim=1) - log_det).sum()
nll.backward()

print("loss:", nll.item())
print("shift[0].weight.grad[:6]:", layer.shift[0].weight.grad[:6].flatten())
print("shift[2].weight.grad[:, :6]:", layer.shift[2].weight.grad[:, :6])
print("scale[0].weight.grad[:6]:", layer.scale[0].weight.grad[:6].flatten())
print("scale[2].weight.grad[:, :6]:", layer.scale[2].weight.grad[:, :6])
