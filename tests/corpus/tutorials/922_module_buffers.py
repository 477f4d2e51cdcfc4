# A normaliser that keeps running statistics in buffers declared with nn.Buffer (PyTorch 2.5+)
# next to the older register_buffer; buffers follow .double() and the state dict, but get no
# gradient and are not parameters.
import torch
from torch import nn


class RunningNorm(nn.Module):
    def __init__(self, features, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.running_mean = nn.Buffer(torch.zeros(features))
        self.running_var = nn.Buffer(torch.ones(features))
        self.steps = nn.Buffer(torch.tensor(0), persistent=False)
        self.register_buffer("scale", torch.full((features,), 2.0))
        self.shift = nn.Parameter(torch.zeros(features))

    def forward(self, x):
        if self.training:
            with torch.no_grad():
                m = self.momentum
                self.running_mean.mul_(1 - m).add_(x.mean(0), alpha=m)
                self.running_var.mul_(1 - m).add_(x.var(0), alpha=m)
                self.steps += 1
        z = (x - self.running_mean) / (self.running_var + 1e-5).sqrt()
        return z * self.scale + self.shift


torch.manual_seed(1)
norm = RunningNorm(3)
for _ in range(4):
    out = norm(torch.randn(8, 3) * 2 + 1)
print([name for name, _ in norm.named_buffers()])
print([name for name, _ in norm.named_parameters()])
print(list(norm.state_dict().keys()))
print(norm.running_mean)
print(norm.running_var)
print(norm.steps, type(norm.running_mean))

out.sum().backward()
print(norm.shift.grad, norm.running_mean.grad)

norm.eval()
print(norm(torch.ones(2, 3)))
norm.double()
print(norm.scale.dtype, norm.running_mean.dtype, norm.steps.dtype)

b = nn.Buffer(torch.arange(3.0))
print(b, b.requires_grad)
print(nn.Buffer())
print(nn.Buffer(torch.ones(1), persistent=False).persistent, b.persistent)
print(hasattr(norm.shift, "persistent"))
