# An MNIST-sized autoencoder trained with binary cross-entropy: 16 images of 28x28 pixels make
# 12,544 terms in one loss (sum and mean), with nn.BCELoss, a weight, and the gradient checked.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
images = torch.rand(16, 1, 28, 28)
flat = images.view(-1, 784)

encoder = nn.Sequential(nn.Linear(784, 64), nn.ReLU(), nn.Linear(64, 8))
decoder = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 784), nn.Sigmoid())
params = list(encoder.parameters()) + list(decoder.parameters())
opt = torch.optim.Adam(params, lr=1e-3)

for step in range(4):
    recon = decoder(encoder(flat))
    loss = F.binary_cross_entropy(recon, flat, reduction="sum")
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: sum {loss.item()}  per pixel {loss.item() / flat.numel():.6f}")

with torch.no_grad():
    recon = decoder(encoder(flat))
    print(nn.BCELoss()(recon, flat))
    print(F.binary_cross_entropy(recon, flat, reduction="none").sum(dim=1)[:4])
    weight = torch.linspace(0.5, 1.5, 784)
    print(F.binary_cross_entropy(recon, flat, weight=weight))
    print(F.binary_cross_entropy(recon, (flat > 0.5).float(), reduction="sum"))
    per_pixel = F.binary_cross_entropy(recon, flat, reduction="none")
    torch.set_printoptions(precision=8)
    print(per_pixel.view(-1)[::523])
    print(per_pixel.double().sum().item(), per_pixel.max().item())
    torch.set_printoptions(profile="default")

logits = torch.randn(64, 100, requires_grad=True)
targets = torch.rand(64, 100)
bce = F.binary_cross_entropy(torch.sigmoid(logits), targets)
bce.backward()
print(bce.item(), logits.grad.abs().sum().item())
