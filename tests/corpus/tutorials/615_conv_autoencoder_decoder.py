# A convolutional autoencoder of a DCGAN-style tutorial: Conv2d down, ConvTranspose2d back up
# (stride 2, padding 1, output_padding), trained a few steps with Adam; the layer reprs, the
# shapes along the way and the gradient of the decoder's first weight.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
encoder = nn.Sequential(
    nn.Conv2d(1, 4, 3, stride=2, padding=1), nn.ReLU(), nn.Conv2d(4, 8, 3, stride=2, padding=1)
)
decoder = nn.Sequential(
    nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1),
    nn.ReLU(),
    nn.ConvTranspose2d(4, 1, 3, stride=2, padding=1, output_padding=1),
    nn.Sigmoid(),
)
print(decoder)
x = torch.rand(2, 1, 8, 8, dtype=torch.float64)
encoder, decoder = encoder.double(), decoder.double()
opt = torch.optim.Adam(list(encoder.parameters()) + list(decoder.parameters()), lr=1e-2)
for step in range(4):
    z = encoder(x)
    recon = decoder(z)
    loss = F.mse_loss(recon, x)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, z.shape, recon.shape, f"{loss.item():.8f}")
print(decoder[0].weight.grad[0, 0])
print(recon.grad_fn.name(), recon.grad_fn.next_functions[0][0].name())
up = nn.ConvTranspose1d(2, 3, kernel_size=4, stride=2, groups=1, bias=False)
print(up, up(torch.ones(1, 2, 5)).shape)
print(F.conv_transpose2d(torch.ones(1, 1, 2, 2), torch.ones(1, 1, 2, 2), stride=2))
