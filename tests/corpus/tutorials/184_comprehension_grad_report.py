import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
x = torch.tensor([[1.0, 0.5, -0.5], [0.0, 2.0, 1.0]])
net(x).pow(2).mean().backward()

grad_norms = {name: p.grad.norm().item() for name, p in net.named_parameters()}
for name in sorted(grad_norms, key=grad_norms.get, reverse=True):
    print(f"{name:<10}{grad_norms[name]:.4f}")

shapes = {tuple(p.shape) for p in net.parameters()}
print(sorted(shapes))
print(sum(p.numel() for p in net.parameters() if p.dim() > 1))
print(max(grad_norms.values()) > min(grad_norms.values()))
print(list(grad_norms.keys())[::-1])
layers = [m for m in net if isinstance(m, nn.Linear)]
print(len(layers), [type(m) for m in net][1])
