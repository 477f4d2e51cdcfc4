# Gradients through causal scaled dot-product attention: the first query sees only the
# first key, so its gradient is (almost) nothing.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
q = torch.randn(1, 2, 3, 4, requires_grad=True)
k = torch.randn(1, 2, 3, 4, requires_grad=True)
v = torch.randn(1, 2, 3, 4, requires_grad=True)

out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print(out.grad_fn.name())
out.sum().backward()
print("q.grad:", q.grad)
print("k.grad:", k.grad)
print("v.grad:", v.grad)
