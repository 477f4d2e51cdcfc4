# Changing the attention output in place before backward: autograd needs the output it saved.
import torch
import torch.nn.functional as F

torch.manual_seed(6)
q = torch.randn(1, 2, 4, 8, requires_grad=True)
k = torch.randn(1, 2, 4, 8)
v = torch.randn(1, 2, 4, 8)
out = F.scaled_dot_product_attention(q, k, v)
out += 1.0
try:
    out.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

out = F.scaled_dot_product_attention(q, k, v)
out = out + 1.0  # out of place: fine
out.sum().backward()
print(q.grad[0, 1])
