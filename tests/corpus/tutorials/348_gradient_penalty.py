import torch
import torch.nn as nn

torch.manual_seed(0)
critic = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
real = torch.randn(4, 2)
fake = torch.randn(4, 2)
alpha = torch.rand(4, 1)
interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
score = critic(interp)
grads = torch.autograd.grad(
    outputs=score,
    inputs=interp,
    grad_outputs=torch.ones_like(score),
    create_graph=True,
    retain_graph=True,
)[0]
print(grads.shape, grads.requires_grad)
penalty = ((grads.norm(2, dim=1) - 1) ** 2).mean()
print(f"gradient penalty: {penalty.item():.6f}")
penalty.backward()
print(critic[0].weight.grad.shape)
print(critic[2].bias.grad)
