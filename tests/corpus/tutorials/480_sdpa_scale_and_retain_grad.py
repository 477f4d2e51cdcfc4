# A custom softmax temperature (scale=) and a look at the gradient arriving at the output.
import torch
import torch.nn.functional as F

torch.manual_seed(5)
q = torch.randn(1, 1, 4, 16, requires_grad=True)
k = torch.randn(1, 1, 5, 16, requires_grad=True)
v = torch.randn(1, 1, 5, 16, requires_grad=True)
for scale in (0.05, 0.25, 1.0):
    out = F.scaled_dot_product_attention(q, k, v, scale=scale)
    out.retain_grad()
    (out * torch.arange(16.0)).sum().backward()
    print(scale, out.grad[0, 0, 0, :4])
    print(q.grad[0, 0, :, :4])
    print(k.grad.abs().max().item(), v.grad.sum().item())
    q.grad = k.grad = v.grad = None
