# Convolution is a matrix product in disguise: nn.Unfold cuts the image into patches (im2col),
# one column per output position; multiplying by the flattened kernels and folding the rows
# back into an image gives exactly what nn.Conv2d computes. nn.Fold is the inverse scatter
# (col2im): overlapping patches are summed, so fold(unfold(x)) counts each pixel's patches.
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(2, 3, 5, 5, requires_grad=True)
conv = nn.Conv2d(3, 4, kernel_size=3, padding=1, bias=False)

unfold = nn.Unfold(kernel_size=3, padding=1)
print(unfold)
patches = unfold(x)  # (N, C*k*k, L)
print("patches:", patches.shape, patches.grad_fn.name())

w = conv.weight.view(4, -1)  # (out_channels, C*k*k)
out = (w @ patches).view(2, 4, 5, 5)
ref = conv(x)
print("max |unfold-matmul - conv| =", (out - ref).abs().max().item() < 1e-5)

# gradients agree too
g = torch.randn_like(ref)
gx_conv, gw_conv = torch.autograd.grad(ref, (x, conv.weight), g)
gx_mm, gw_mm = torch.autograd.grad(out, (x, conv.weight), g)
print("grad x close:", torch.allclose(gx_conv, gx_mm, atol=1e-5))
print("grad w close:", torch.allclose(gw_conv, gw_mm, atol=1e-5))

# Fold undoes Unfold up to the overlap count
fold = nn.Fold(output_size=(5, 5), kernel_size=3, padding=1)
print(fold)
ones = torch.ones(1, 1, 5, 5)
counts = fold(unfold(ones))
print(counts)

# non-overlapping patches: fold(unfold(x)) == x, and the gradient of the round trip is 1
img = torch.arange(16.0).view(1, 1, 4, 4).requires_grad_()
blocks = nn.Unfold(kernel_size=(2, 2), stride=2)(img)
print(blocks)
back = nn.Fold(output_size=(4, 4), kernel_size=(2, 2), stride=2)(blocks)
print(back.grad_fn.name(), torch.equal(back, img))
(back * img).sum().backward()
print(img.grad)

# the module's settings are attributes, shown as given
u = nn.Unfold(kernel_size=(2, 3), dilation=(1, 2), stride=[1, 2])
print(u.kernel_size, u.dilation, u.padding, u.stride)
print(u)
print(u(torch.randn(1, 2, 4, 7)).shape)
print(list(u.parameters()), u.state_dict())
print(nn.Fold(4, 2, 1, 0, 1))

with torch.no_grad():
    double = torch.randn(1, 2, 3, 3, dtype=torch.float64)
    cols = nn.Unfold(2)(double)
    print(cols.dtype, cols.shape)
