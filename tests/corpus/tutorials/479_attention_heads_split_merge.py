# Split into heads with view/transpose, attend, merge back: the gradient reaches the input
# through every view.
import torch
import torch.nn.functional as F

torch.manual_seed(4)
x = torch.randn(2, 9, 12, requires_grad=True)
heads = 3
b, n, d = x.shape
h = x.view(b, n, heads, d // heads).transpose(1, 2)
y = F.scaled_dot_product_attention(h, h, h)
merged = y.transpose(1, 2).contiguous().view(b, n, d)
merged.sum().backward()
print(x.grad[0, :3])
print(x.grad[1].sum(dim=0))
print(x.grad.norm().item())
