import torch
import torch.nn as nn


def show(name, t):
    # a fingerprint of every float32 bit: the elements weighted in float64 (a last-bit change of
    # any element moves it by about 1e-8 relative), and the first few as they are
    w = torch.linspace(1.0, 2.0, t.numel(), dtype=torch.float64)
    print(name, tuple(t.shape), (t.double().flatten() * w).sum().item(), t.flatten()[:4].tolist())


for seed in (0, 1):
    torch.manual_seed(seed)
    mha = nn.MultiheadAttention(16, 4, batch_first=True)
    x = torch.randn(3, 7, 16, requires_grad=True)
    for need in (True, False):
        out, w = mha(x, x, x, need_weights=need)
        loss = out.pow(2).sum() + (w.sum() if need else 0)
        loss.backward()
        for n, p in mha.named_parameters():
            show(n, p.grad)
        show("x", x.grad)
        mha.zero_grad()
        x.grad = None

torch.manual_seed(2)
mha = nn.MultiheadAttention(32, 8)
x = torch.randn(11, 2, 32, requires_grad=True)
mem = torch.randn(9, 2, 32, requires_grad=True)
kpm = torch.zeros(2, 9, dtype=torch.bool)
kpm[1, 6:] = True
out, _ = mha(x, mem, mem, key_padding_mask=kpm, need_weights=False)
out.sum().backward()
for n, p in mha.named_parameters():
    show(n, p.grad)
show("x", x.grad)
show("mem", mem.grad)

torch.manual_seed(3)
layer = nn.TransformerEncoderLayer(16, 4, dim_feedforward=32, dropout=0.0, batch_first=True)
x = torch.randn(2, 6, 16, requires_grad=True)
mask = nn.Transformer.generate_square_subsequent_mask(6)
layer(x, src_mask=mask, is_causal=True).pow(2).mean().backward()
for n, p in layer.named_parameters():
    show(n, p.grad)
show("x", x.grad)

torch.manual_seed(4)
dec = nn.TransformerDecoderLayer(24, 3, dim_feedforward=48, dropout=0.0, batch_first=True)
opt = torch.optim.Adam(dec.parameters(), lr=1e-3)
tgt = torch.randn(2, 9, 24)
memory = torch.randn(2, 11, 24)
mask = nn.Transformer.generate_square_subsequent_mask(9)
for step in range(3):
    opt.zero_grad()
    loss = dec(tgt, memory, tgt_mask=mask, tgt_is_causal=True).pow(2).mean()
    loss.backward()
    opt.step()
    print("step", step, loss.item())
for n, p in dec.named_parameters():
    show(n, p.grad)
