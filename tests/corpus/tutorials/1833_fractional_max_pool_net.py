# Fractional max pooling (Graham's stochastic pooling regions) in a tiny network: the pooling
# regions are drawn from the generator, so a seed fixes them; indices and gradients shown.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(42)


class FracNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3, padding=1).double()
        self.pool = nn.FractionalMaxPool2d(2, output_ratio=(0.7, 0.7))
        self.head = nn.Linear(2 * 7 * 7, 3).double()

    def forward(self, x):
        x = self.pool(torch.relu(self.conv(x)))
        return self.head(x.flatten(1))


net = FracNet()
print(net)
images = torch.randn(4, 1, 10, 10, dtype=torch.float64)
logits = net(images)
print(logits.shape)
loss = F.cross_entropy(logits, torch.tensor([0, 2, 1, 2]))
loss.backward()
print(round(loss.item(), 6))
print(net.conv.weight.grad.sum(dim=(1, 2, 3)))

# the same pooling twice with one seed: the same regions
x = torch.arange(64.0).reshape(1, 1, 8, 8).requires_grad_()
torch.manual_seed(7)
out1, idx1 = F.fractional_max_pool2d(x, kernel_size=2, output_size=(5, 4), return_indices=True)
torch.manual_seed(7)
out2 = F.fractional_max_pool2d(x, kernel_size=2, output_size=(5, 4))
print(idx1[0, 0])
print(torch.equal(out1, out2), out1.grad_fn.name())
out1.sum().backward()
print(x.grad[0, 0])

# the regions given explicitly: one (width, height) sample per channel
fixed = torch.tensor([[[0.25, 0.75], [0.9, 0.1]]])
two = torch.stack([x.detach()[0, 0], -x.detach()[0, 0]]).unsqueeze(0)
print(F.fractional_max_pool2d(two, 3, output_size=3, _random_samples=fixed))

vol = torch.randn(1, 2, 6, 6, 6)
pool3 = nn.FractionalMaxPool3d(kernel_size=(2, 2, 3), output_ratio=0.5, return_indices=True)
v, vi = pool3(vol)
print(v.shape, vi.flatten()[:8])
try:
    nn.FractionalMaxPool2d(2, output_ratio=1.2)
except ValueError as e:
    print("ValueError:", e)
try:
    F.fractional_max_pool2d(torch.ones(1, 1, 4, 4), 3, output_size=3)
except RuntimeError as e:
    print("RuntimeError:", e)
