# Half-precision linear layers on the CPU: float16 and bfloat16 products
# (mm, addmm with a bias, nn.Linear forward and backward, bmm, einsum, addmv).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

# A float16 layer: forward and the gradients of its weight and bias
layer = nn.Linear(96, 24).half()
x = torch.randn(4, 96).half()
out = layer(x)
print(out.dtype, out.shape)
print(out[0, :6])
loss = out.float().pow(2).mean()
loss.backward()
print(layer.weight.grad.dtype)
print(layer.weight.grad[0, :6])
print(layer.bias.grad[:6])
print("checksum", out.float().sum().item(), layer.weight.grad.float().abs().sum().item())

# addmm with a bias row in bfloat16 (the bias goes into the float32 sum)
a = torch.randn(4, 16).bfloat16()
w = torch.randn(6, 16).bfloat16()
b = torch.randn(6).bfloat16()
r1 = torch.addmm(b, a, w.t())
r2 = F.linear(a, w, b)
print(r1)
print("addmm equals linear:", torch.equal(r1, r2))
print("scaled:", torch.addmm(b, a, w.t(), beta=0.5, alpha=2.0).float().sum().item())

# the same in float16, with a weight of 150 inputs
a16 = torch.randn(5, 150).half()
w16 = torch.randn(7, 150).half()
b16 = torch.randn(7).half()
print(torch.addmm(b16, a16, w16.t()))
print((a16 @ w16.t()).float().sum().item())

# batched products and einsum in float16
q = torch.randn(2, 5, 40).half()
k = torch.randn(2, 40, 9).half()
s = torch.bmm(q, k)
print(s[1, 0])
print(torch.baddbmm(torch.ones(2, 5, 9).half(), q, k)[0, 1])
e = torch.einsum("ik,jk->ij", a16, w16)
print(torch.equal(e, a16 @ w16.t()))
print(torch.addmv(torch.randn(5).half(), a16, torch.randn(150).half()))
print(torch.einsum("ij->j", a16 * 4)[:8])
