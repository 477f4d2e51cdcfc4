# A spatial-transformer step: a small network predicts an affine matrix, F.affine_grid turns it
# into a sampling grid and F.grid_sample resamples the image; gradients reach the image, the
# grid and the network. Then the other modes and padding modes on a fixed grid.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)

img = torch.randn(2, 1, 6, 6, requires_grad=True)
loc = nn.Linear(36, 6)
with torch.no_grad():
    loc.weight.mul_(0.1)
    loc.bias.copy_(torch.tensor([1.0, 0.1, 0.0, -0.1, 0.9, 0.05]))
theta = loc(img.view(2, -1)).view(-1, 2, 3)
grid = F.affine_grid(theta, img.size(), align_corners=False)
print(grid.shape, grid.grad_fn.name())
out = F.grid_sample(img, grid, align_corners=False)
print(out.grad_fn.name())
print(out[0, 0].round(decimals=3))
loss = out.square().mean()
loss.backward()
print(f"loss {loss.item():.5f}")
print(img.grad[1, 0].round(decimals=4))
print(loc.bias.grad.round(decimals=4))

# a fixed grid reaching past the image, every mode and padding mode (float64)
x = torch.arange(12.0, dtype=torch.float64).view(1, 1, 3, 4)
g = torch.tensor([[[[-1.2, -1.0], [0.1, 0.3], [1.4, 0.9]],
                   [[0.55, -0.75], [-0.3, 1.25], [0.0, 0.0]]]], dtype=torch.float64,
                 requires_grad=True)
for mode in ("bilinear", "nearest"):
    for pad in ("zeros", "border", "reflection"):
        for align in (False, True):
            y = F.grid_sample(x, g, mode=mode, padding_mode=pad, align_corners=align)
            gg, = torch.autograd.grad(y.sum(), g)
            print(mode, pad, align, y.flatten().tolist(), gg.flatten().tolist())

try:
    F.grid_sample(x, g, mode="cubic")
except ValueError as e:
    print(e)
