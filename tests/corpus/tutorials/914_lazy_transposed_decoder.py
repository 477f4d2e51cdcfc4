# A decoder that does not say how many channels it receives: the lazy transposed
# convolutions learn in_channels from the first batch (a dry run), draw their weights then,
# and turn into ordinary ConvTranspose modules. Upsampling by 2 with stride=2, padding=1,
# output_padding=1 and a 3x3 kernel.
import torch
import torch.nn as nn

torch.manual_seed(0)
decoder = nn.Sequential(
    nn.LazyConvTranspose2d(4, kernel_size=3, stride=2, padding=1, output_padding=1),
    nn.ReLU(),
    nn.LazyConvTranspose2d(1, kernel_size=3, padding=1, bias=False),
)
print(decoder)
print(decoder[0].weight, decoder[0].in_channels)

z = torch.randn(2, 6, 3, 3)
with torch.no_grad():
    decoder(z)  # dry run: shapes are known now
print(decoder)
print([tuple(p.shape) for p in decoder.parameters()])
print(sum(p.numel() for p in decoder.parameters()), "parameters")

opt = torch.optim.Adam(decoder.parameters(), lr=0.01)
target = torch.zeros(2, 1, 6, 6)
for step in range(3):
    opt.zero_grad()
    out = decoder(z)
    loss = (out - target).pow(2).mean()
    loss.backward()
    opt.step()
    print(step, out.shape, f"{loss.item():.6f}")
print(decoder[2].weight.grad[0, :2])

# 1-d and 3-d versions; an unbatched input is fine too
up1 = nn.LazyConvTranspose1d(2, kernel_size=4, stride=2, dilation=1)
print(up1(torch.randn(3, 5)).shape, up1.weight.shape, up1)
up3 = nn.LazyConvTranspose3d(1, kernel_size=2, groups=1, bias=False)
v = torch.randn(1, 2, 2, 2, 2, requires_grad=True)
up3(v).sum().backward()
print(up3, v.grad[0, 1, 0])

try:
    nn.LazyConvTranspose2d(3, 2)(torch.randn(4, 4))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    nn.LazyConvTranspose2d(4, 3, groups=2)(torch.randn(1, 3, 2, 2))
except ValueError as e:
    print("ValueError:", e)
