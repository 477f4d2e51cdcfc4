# A small geometry-and-upsampling notebook: pairwise distances between point clouds (cdist and
# pdist, with the gradient of a mean distance), the heading angle of each step with atan2, a
# product of growth factors, and a learned 2x upsampling by a transposed convolution.
import torch
import torch.nn as nn

torch.manual_seed(17)
torch.set_printoptions(precision=8)

# point clouds: distances and their gradient
a = torch.randn(9, 6, requires_grad=True)
b = torch.randn(11, 6, requires_grad=True)
d = torch.cdist(a, b)
print("nearest:", d.min(dim=1).values)
loss = d.mean()
loss.backward()
print("grad a[0]:", a.grad[0])
print("grad b[-1]:", b.grad[-1])
print("pdist:", torch.pdist(a.detach())[:12])

# headings of a random walk
steps = torch.randn(37, 2)
angles = torch.atan2(steps[:, 1], steps[:, 0])
print("angles:", angles[:8])
print("last angles:", angles[-5:])
print("soft headings:", torch.softmax(angles * 3, dim=0)[:6])

# compounded growth
growth = 1 + 0.05 * torch.randn(3, 70)
print("total growth:", growth.prod(dim=1))
print("first 20:", growth[:, :20].prod(dim=-1).tolist())

# learned upsampling
up = nn.ConvTranspose2d(4, 3, kernel_size=4, stride=2, padding=1)
img = torch.randn(2, 4, 5, 5, requires_grad=True)
out = up(img)
print(out.shape)
print("corner:", out[0, :, 0, 0])
print("center:", out[1, 2, 4, 3:7])
out.square().mean().backward()
print("weight grad:", up.weight.grad[0, 0, 0])
print("input grad:", img.grad[1, 3, 2])
