# Pooling beyond max and average. Power-average (LP) pooling takes the p-norm of each
# window: p=1 is sum pooling, p=2 the "energy", p -> inf approaches max pooling of |x|.
# Adaptive max pooling picks windows so that any input size gives the requested output
# size; max_unpool3d puts the maxima back where they came from.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
signal = torch.tensor([[[1.0, -2.0, 3.0, 0.5, -1.5, 2.5]]], requires_grad=True)
for p in (1, 2, 4, float("inf")):
    pooled = F.lp_pool1d(signal.abs(), p, kernel_size=2)
    print(f"p={p}:", pooled.detach(), pooled.grad_fn.name())

pool = nn.LPPool2d(norm_type=2, kernel_size=(2, 3), stride=1)
print(pool, pool.norm_type, pool.kernel_size, pool.stride, pool.ceil_mode)
img = torch.randn(1, 2, 4, 5, requires_grad=True)
energy = pool(img)
print(energy.shape)
energy.sum().backward()
print(img.grad[0, 0])

# same as the hand-written formula
by_hand = F.avg_pool2d(img.pow(2), (2, 3), stride=1).mul(6).sqrt()
print(torch.allclose(energy, by_hand))

vol = torch.rand(1, 1, 3, 4, 4, dtype=torch.float64, requires_grad=True)
lp3 = nn.LPPool3d(3, kernel_size=2, stride=1, ceil_mode=False)
out = lp3(vol)
print(lp3, out.shape, out[0, 0, 0])
out.sum().backward()
print(vol.grad[0, 0, 1])

zeros = torch.zeros(1, 1, 4, requires_grad=True)
F.lp_pool1d(zeros, 2, 2).sum().backward()
print("gradient at an all-zero window:", zeros.grad)

# adaptive max pooling in 3-d: any volume to a fixed grid
amp = nn.AdaptiveMaxPool3d((2, 1, 2), return_indices=True)
print(amp)
v = torch.randn(2, 2, 5, 3, 4, requires_grad=True)
m, where = amp(v)
print(m.shape, m.grad_fn.name())
print(m[0], where[0])
m.sum().backward()
print(v.grad[0, 0].sum(), v.grad.sum())
print(F.adaptive_max_pool3d(v, (None, 2, 1)).shape)
vals, idx = F.adaptive_max_pool1d_with_indices(signal, 4)
print(vals, idx)
print(F.adaptive_max_pool2d_with_indices(img, (1, 2))[1])

# max pooling with indices, then unpooling: a sparse volume with the maxima in place
x = torch.arange(32.0).view(1, 1, 2, 4, 4) * torch.tensor([1.0, -1.0]).repeat(16).view(1, 1, 2, 4, 4)
y, ind = F.max_pool3d_with_indices(x, 2)
print(y, ind)
unpool = nn.MaxUnpool3d(2)
print(unpool)
restored = unpool(y, ind)
print(restored[0, 0, 1])
print(unpool(y, ind, output_size=(1, 1, 3, 5, 5)).shape)
try:
    F.max_unpool3d(y, ind + 100, 2)
except RuntimeError as e:
    print("RuntimeError:", e)
