import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)
torch.manual_seed(7)
mha = nn.MultiheadAttention(6, 3, add_bias_kv=True, add_zero_attn=True, dropout=0.3)
x = torch.randn(4, 2, 6, requires_grad=True)
kpm = torch.tensor([[False, False, True, False], [False, False, False, False]])
mask = nn.Transformer.generate_square_subsequent_mask(4)
out, w = mha(x, x, x, key_padding_mask=kpm, attn_mask=mask)
print(out.grad_fn.name(), w.grad_fn.name(), tuple(w.shape))
cross = nn.MultiheadAttention(6, 2, kdim=3, vdim=5, batch_first=True, bias=False)
kk = torch.randn(2, 7, 3)
vv = torch.randn(2, 7, 5)
out2, w2 = cross(x.transpose(0, 1), kk, vv, average_attn_weights=False)
out3, none = cross(x.transpose(0, 1), kk, vv, need_weights=False)
print(out2.grad_fn.name(), w2.grad_fn.name(), tuple(w2.shape), out3.grad_fn.name(), none)
out4, w4 = mha(x[:, 0], x[:, 0], x[:, 0], need_weights=False, attn_mask=mask, is_causal=True)
print(out4.grad_fn.name(), w4)
loss = (out * out).sum() + (w * 3).sum() + out2.sum() + (w2 * w2).sum() + (out3 * out3).sum()
loss = loss + out4.sum()
loss.backward()
for t in (out, w, out2, w2, out3, out4, x.grad):
    print(t.tolist())
for name, p in list(mha.named_parameters()) + list(cross.named_parameters()):
    print(name, p.grad.tolist())
