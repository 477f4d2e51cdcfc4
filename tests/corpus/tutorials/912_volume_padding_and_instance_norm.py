# Volumes (N, C, D, H, W): the 3-d padding modules and InstanceNorm3d, as a 3-d U-Net block
# uses them. Reflection and replication repeat the border, circular wraps around, constant
# fills; each pads (left, right, top, bottom, front, back) of the last three dimensions.
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)
vol = torch.arange(12.0).view(1, 1, 2, 2, 3)

for pad in (
    nn.ConstantPad3d((1, 0, 0, 1, 0, 0), 7.5),
    nn.ZeroPad3d(1),
    nn.ReflectionPad3d((1, 1, 0, 0, 0, 0)),
    nn.ReplicationPad3d((0, 1, 1, 0, 1, 0)),
    nn.CircularPad3d((2, 0, 0, 0, 1, 1)),
):
    out = pad(vol)
    print(pad, pad.padding, tuple(out.shape))
print(nn.ReflectionPad3d((1, 1, 0, 0, 0, 0))(vol)[0, 0, 1])
print(nn.CircularPad3d((2, 0, 0, 0, 1, 1))(vol)[0, 0, :, 0])

# gradients of a padding add up where a border element was copied
x = torch.arange(8.0).view(1, 1, 2, 2, 2).requires_grad_()
y = nn.ReplicationPad3d(1)(x)
print(y.grad_fn.name(), y.shape)
y.sum().backward()
print(x.grad)
x.grad = None
nn.ReflectionPad3d(1)(x).pow(2).sum().backward()
print(x.grad)

# an unbatched volume (C, D, H, W) is padded too; CircularPad3d wants 4 or 5 dims
print(nn.ZeroPad3d((1, 1, 0, 0, 0, 0))(torch.ones(1, 1, 1, 2)))
try:
    nn.CircularPad3d(1)(torch.ones(2, 3, 3))
except ValueError as e:
    print("ValueError:", e)
try:
    nn.ReflectionPad3d(1)(torch.ones(2, 3, 3))
except NotImplementedError as e:
    print("NotImplementedError:", e)

# InstanceNorm3d: each sample's channels normalised over D, H, W
norm = nn.InstanceNorm3d(2, affine=True)
print(norm)
v = torch.randn(2, 2, 2, 3, 3, requires_grad=True)
z = norm(v)
print(z.mean(dim=(2, 3, 4)).abs().max() < 1e-12, z.var(dim=(2, 3, 4), unbiased=False)[0])
(z[:, 0] ** 3).sum().backward()
print(v.grad[0, 0, 1])
print(norm.weight.grad, norm.bias.grad)

tracked = nn.InstanceNorm3d(2, track_running_stats=True, momentum=0.5)
tracked(v)
print(tracked.running_mean, tracked.running_var)
tracked.eval()
print(tracked(v)[1, 1, 0])
print(nn.InstanceNorm3d(2)(v[0]).shape)  # unbatched
try:
    nn.InstanceNorm3d(3, affine=True)(v)
except ValueError as e:
    print("ValueError:", e)

# the lazy versions learn num_features from the first batch and become the real module
lazy = nn.LazyInstanceNorm3d()
print(lazy, lazy.weight)
out = lazy(v)
print(lazy)
print(type(lazy).__name__, lazy.num_features, lazy.running_mean)
lazy1 = nn.LazyInstanceNorm1d(eps=1e-3)
print(lazy1(torch.tensor([[[1.0, 2.0, 4.0], [0.0, 0.0, 3.0]]])))
print(lazy1, isinstance(lazy1, nn.InstanceNorm1d))
