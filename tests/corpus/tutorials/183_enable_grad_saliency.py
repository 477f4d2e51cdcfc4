import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
model.eval()
x = torch.tensor([[0.5, -1.0, 2.0]])

with torch.no_grad():
    print(model(x))
    with torch.enable_grad():
        inp = x.clone().requires_grad_(True)
        score = model(inp).sum()
        saliency, = torch.autograd.grad(score, inp)
    print(saliency)
    print(saliency.abs().argmax().item())

print(torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    print(model(x).requires_grad)
print(model(x).requires_grad)
