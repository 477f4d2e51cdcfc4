# Buffers: tensors a module keeps beside its parameters. BatchNorm2d normalises each channel
# of an image batch; momentum=None keeps a cumulative average instead.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Masked(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.linear = nn.Linear(n, n, bias=False)
        self.register_buffer("mask", torch.tril(torch.ones(n, n)))
        self.register_buffer("scratch", torch.zeros(n), persistent=False)

    def forward(self, x):
        return F.linear(x, self.linear.weight * self.mask)


torch.manual_seed(1)
m = Masked(3)
print(m.mask)
print([name for name, _ in m.named_buffers()])
print(list(m.state_dict().keys()))
x = torch.randn(2, 3)
out = m(x).sum()
out.backward()
print(m.linear.weight.grad)

bn = nn.BatchNorm2d(2, momentum=None)
print(bn)
images = torch.randn(3, 2, 4, 4) * 3 + 1
for step in range(3):
    out = bn(images * (step + 1))
print(out.mean(dim=(0, 2, 3)), out.std(dim=(0, 2, 3)))
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)

bn.eval()
print(bn(images)[0, 0, 0])

stats = F.batch_norm(images, torch.zeros(2), torch.ones(2), training=True, momentum=0.5)
print(stats.shape, stats.grad_fn)

plain = nn.BatchNorm1d(3, affine=False, track_running_stats=False)
print(plain, plain.weight, plain.running_mean)
print(plain(torch.tensor([[1.0, 2.0, 3.0], [3.0, 6.0, 9.0], [2.0, 4.0, 0.0]])))

try:
    nn.BatchNorm1d(3)(torch.randn(1, 3))
except ValueError as e:
    print("ValueError:", e)
try:
    m.register_buffer("linear", torch.ones(1))
except KeyError as e:
    print("KeyError:", e)
