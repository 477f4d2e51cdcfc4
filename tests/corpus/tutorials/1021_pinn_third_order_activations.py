# Physics-informed losses take second derivatives of the network with respect
# to its input, then the optimizer differentiates the loss once more: third
# derivatives of the activation. Where several of those gradients meet, the
# order PyTorch recorded the second-order nodes in decides the float32 sums.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(11)
activations = {
    "silu": F.silu,
    "sin": torch.sin,
    "cos": torch.cos,
    "sigmoid": torch.sigmoid,
    "tanh": torch.tanh,
    "product": lambda h: h * torch.sigmoid(h) * h,
}
t = torch.linspace(0.0, 1.0, 5).view(-1, 1).requires_grad_()
for name, act in activations.items():
    for _ in range(4):
        first = nn.Linear(1, 3)
        last = nn.Linear(3, 1)
        y = last(act(first(t)))
        dy = torch.autograd.grad(y, t, torch.ones_like(y), create_graph=True)[0]
        d2y = torch.autograd.grad(dy, t, torch.ones_like(dy), create_graph=True)[0]
        residual = d2y + 4.0 * y  # y'' + 4 y = 0
        loss = residual.pow(2).mean() + (y[0] - 1.0).pow(2).sum() + dy[0].pow(2).sum()
        loss.backward()
        print(name, round(loss.item(), 6))
        print("  bias grad", first.bias.grad.tolist())
        print("  weight grad", first.weight.grad.flatten().tolist())
