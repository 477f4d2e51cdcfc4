# What goes wrong with attention (the errors a forum thread pastes), and a float64 check of
# scaled_dot_product_attention's gradient against finite differences.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)

try:
    nn.MultiheadAttention(10, 3)
except AssertionError as e:
    print("AssertionError:", e)

mha = nn.MultiheadAttention(8, 2)
x = torch.randn(4, 2, 8)
try:
    mha(x, x, x, attn_mask=torch.zeros(3, 4))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    mha(x, x, x, key_padding_mask=torch.zeros(2, 5, dtype=torch.bool))
except AssertionError as e:
    print("AssertionError:", e)
try:
    mha(x, x, x, is_causal=True)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    mha(x[0, 0], x[0, 0], x[0, 0])
except AssertionError as e:
    print("AssertionError:", e)
try:
    F.scaled_dot_product_attention(x, x, x.double())
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    F.scaled_dot_product_attention(x, x, x, attn_mask=torch.zeros(4, 8, dtype=torch.long))
except RuntimeError as e:
    print("RuntimeError:", e)

q = torch.randn(1, 2, 3, 4, dtype=torch.float64, requires_grad=True)
k = torch.randn(1, 2, 5, 4, dtype=torch.float64, requires_grad=True)
v = torch.randn(1, 2, 5, 4, dtype=torch.float64, requires_grad=True)
mask = torch.randn(3, 5, dtype=torch.float64)
print(torch.autograd.gradcheck(lambda a, b, c: F.scaled_dot_product_attention(a, b, c, attn_mask=mask), (q, k, v)))
out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
print(out)
out.pow(2).sum().backward()
print(q.grad)
print(k.grad)
print(v.grad)
