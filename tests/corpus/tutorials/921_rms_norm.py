# RMSNorm, the normalisation of LLaMA-style transformer blocks, as a module and written out
# by hand, with the gradient of the learned scale.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
x = torch.randn(2, 3, 6, requires_grad=True)
norm = nn.RMSNorm(6)
print(norm)
print(type(norm))
y = norm(x)
print(y[0])
print(y.grad_fn.name(), y.grad_fn.next_functions[0][0].name())

eps = torch.finfo(x.dtype).eps
manual = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * norm.weight
print(torch.allclose(y, manual))
print((y.pow(2).mean(-1) - 1).abs().max() < 1e-4)

y.sum().backward()
print(norm.weight.grad)
print(x.grad[1, 2])

z = F.rms_norm(x, (3, 6), eps=1e-6)
print(z[1, 0])
print(nn.RMSNorm([3, 6], eps=1e-5, elementwise_affine=False))
print(nn.RMSNorm(6).eps, nn.RMSNorm(6).weight.shape)

try:
    F.rms_norm(x, (5,))
except RuntimeError as e:
    print(e)

print(F.rms_norm(torch.tensor([[3.0, 4.0]], dtype=torch.float64), [2]))
