# A tiny 1-D autoencoder whose decoder must give back exactly the length it was fed: with a
# stride of 2, an odd and an even length shrink to the same size, so the decoder's transposed
# convolution is told the wanted size with output_size=...
import torch
from torch import nn

torch.manual_seed(3)


class AutoEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.down = nn.Conv1d(2, 4, 3, stride=2, padding=1)
        self.up = nn.ConvTranspose1d(4, 2, 3, stride=2, padding=1)

    def forward(self, x):
        h = torch.tanh(self.down(x))
        return self.up(h, output_size=x.size())


model = AutoEncoder().double()
for length in (7, 8):
    x = torch.linspace(-1, 1, 2 * length, dtype=torch.float64).reshape(1, 2, length)
    y = model(x)
    print(length, tuple(y.shape))
    loss = ((y - x) ** 2).mean()
    model.zero_grad()
    loss.backward()
    print(round(loss.item(), 8))
    print(model.up.weight.grad[0, 0])
    print(model.down.bias.grad)

# A 2-D upsampler given only the spatial sizes, a tuple, and an unbatched input
up2 = nn.ConvTranspose2d(1, 1, kernel_size=3, stride=(2, 3), padding=1, dilation=(1, 2)).double()
img = torch.arange(12.0, dtype=torch.float64).reshape(1, 3, 4).requires_grad_()
for size in [(5, 12), (6, 14)]:
    out = up2(img, output_size=size)
    print(tuple(out.shape), round(out.sum().item(), 6))
out.pow(2).sum().backward()
print(img.grad)

# A size the stride cannot reach is refused, with the range that would work
try:
    up2(img, output_size=[7, 12])
except ValueError as e:
    print(e)
try:
    model.up(torch.ones(1, 4, 4, dtype=torch.float64), output_size=[1, 2, 3, 4])
except ValueError as e:
    print(e)
