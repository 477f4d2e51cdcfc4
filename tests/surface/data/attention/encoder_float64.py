import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)
torch.manual_seed(11)
layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.2, activation="gelu", norm_first=True)
enc = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(8))
dec = nn.TransformerDecoderLayer(8, 4, 12, dropout=0.1, batch_first=True)
src = torch.randn(5, 2, 8, requires_grad=True)
tgt = torch.randn(2, 3, 8, requires_grad=True)
mem = enc(src, src_key_padding_mask=torch.tensor([[False] * 5, [False, False, False, True, True]]))
causal = nn.Transformer.generate_square_subsequent_mask(3)
out = dec(tgt, mem.transpose(0, 1), tgt_mask=causal, tgt_is_causal=True)
print(mem.grad_fn.name(), out.grad_fn.name())
(out * out).sum().backward()
w1 = enc.layers[1].linear1.weight.grad
for t in (mem, out, src.grad, tgt.grad, w1, dec.multihead_attn.in_proj_weight.grad):
    print(t.tolist())
model = nn.Transformer(8, 2, 1, 1, 16, dropout=0.0)
y = model(torch.randn(4, 2, 8), torch.randn(3, 2, 8))
print(y.tolist())
print([n for n, _ in model.named_parameters()][:6])
