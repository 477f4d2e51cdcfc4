# Initialising a model by layer class, the two ways GAN and classification tutorials do it:
# by the class name (`m.__class__.__name__.find('Conv')`) and by isinstance against layer
# classes (a ReLU6 is a Hardtanh, a LazyLinear a Linear, a ZeroPad2d a ConstantPad2d).
import torch
import torch.nn as nn

torch.manual_seed(999)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(4, 3, 3, 1, 0, bias=False),
            nn.BatchNorm2d(3),
            nn.ReLU(True),
            nn.ZeroPad2d(1),
            nn.Conv2d(3, 1, 3, 1, 1, bias=False),
            nn.ReLU6(),
            nn.Flatten(),
            nn.LazyLinear(2),
        )

    def forward(self, z):
        return self.main(z)


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find("Conv") != -1:
        nn.init.normal_(m.weight.data, 0.0, 0.02)
        print("conv init:", classname)
    elif classname.find("BatchNorm") != -1:
        nn.init.normal_(m.weight.data, 1.0, 0.02)
        nn.init.constant_(m.bias.data, 0)
        print("batchnorm init:", classname)


net = Generator()
net.apply(weights_init)
print(net.main[0].weight[0, 0])
print(net.main[1].weight, net.main[1].bias)

kinds = [nn.Conv2d, nn.ConvTranspose2d, nn.BatchNorm2d, nn.Hardtanh, nn.ReLU6, nn.ReLU,
         nn.ConstantPad2d, nn.ZeroPad2d, nn.Linear, nn.LazyLinear, nn.Flatten]
for layer in net.main:
    print(f"{type(layer).__name__:<16}", "".join("x" if isinstance(layer, k) else "." for k in kinds))

z = torch.randn(2, 4, 1, 1)
out = net(z)
print(out)
print(type(net.main[7]).__name__, isinstance(net.main[7], nn.Linear), net.main[7].in_features)
for m in net.modules():
    if isinstance(m, (nn.Conv2d, nn.ConvTranspose2d, nn.Linear)):
        m.reset_parameters()
print(net(z))
