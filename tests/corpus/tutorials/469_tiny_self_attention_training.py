# A tiny self-attention layer trained to copy a target: projections, multi-head split,
# scaled_dot_product_attention, output projection, Adam.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.view(b, n, self.heads, d // self.heads).transpose(1, 2)
        k = k.view(b, n, self.heads, d // self.heads).transpose(1, 2)
        v = v.view(b, n, self.heads, d // self.heads).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        y = y.transpose(1, 2).reshape(b, n, d)
        return self.proj(y)


torch.manual_seed(3)
model = SelfAttention(16, 4)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x = torch.randn(4, 10, 16)
target = torch.randn(4, 10, 16)
for step in range(8):
    opt.zero_grad()
    loss = F.mse_loss(model(x), target)
    loss.backward()
    opt.step()
    print(step, loss.item())
print(model.qkv.weight.grad[:2, :5])
print(model.proj.bias.grad)
