# Per-sample gradients the way PyTorch's tutorial computes them: the model's parameters pulled
# out into a dict, torch.func.functional_call to run the model with them, grad for one sample,
# vmap over the batch; checked against a loop of ordinary backward passes.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap


class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


torch.manual_seed(0)
model = SimpleMLP()
data = torch.randn(5, 4)
targets = torch.tensor([0, 2, 1, 1, 0])

params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    return F.cross_entropy(predictions, targets)


ft_compute_sample_grad = vmap(grad(compute_loss), in_dims=(None, None, 0, 0))
per_sample = ft_compute_sample_grad(params, buffers, data, targets)
for name, g in per_sample.items():
    print(name, tuple(g.shape))
print(per_sample["fc2.bias"])

# the same gradients, one backward pass per sample
for i in range(5):
    model.zero_grad()
    F.cross_entropy(model(data[i : i + 1]), targets[i : i + 1]).backward()
    worst = max((per_sample[n][i] - p.grad).abs().max().item() for n, p in model.named_parameters())
    print(i, worst < 1e-6)
