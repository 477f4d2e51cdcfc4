import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
for p in model.parameters():
    p.register_hook(lambda grad: torch.clamp(grad, -0.1, 0.1))

x = torch.randn(5, 3) * 10
loss = (model(x) - 5).pow(2).mean()
loss.backward()
for name, p in model.named_parameters():
    print(name, p.grad.abs().max().item() <= 0.1, tuple(p.grad.shape))
print(model[2].bias.grad)
