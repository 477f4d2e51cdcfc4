import torch
import torch.nn as nn

x = torch.tensor([-2.0, -0.5, 0.0, 0.5, 2.0])
acts = [
    nn.ReLU(), nn.LeakyReLU(0.2), nn.Sigmoid(), nn.Tanh(), nn.Softplus(),
    nn.GELU(), nn.ELU(), nn.SELU(), nn.SiLU(), nn.Hardtanh(), nn.ReLU6(),
    nn.Softsign(), nn.Mish(), nn.Hardswish(), nn.Hardsigmoid(), nn.CELU(alpha=0.5),
]
for act in acts:
    print(f"{str(act):<32} {act(x)}")

sm = nn.Softmax(dim=0)
print(sm(x))
print(nn.LogSoftmax(dim=0)(x))
print(nn.Softmin(dim=0)(x))

xg = x.clone().requires_grad_(True)
nn.GELU()(xg).sum().backward()
print(xg.grad)
