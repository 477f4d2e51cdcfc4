# Which results keep a transposed input's memory layout? A walk through strides after
# flip, sort, rand_like, masked_fill, tril and cummax, and what .view() then allows.
import torch

torch.manual_seed(3)
w = torch.randn(3, 4, requires_grad=True)
wt = w.t()
print("input:", wt.shape, wt.stride(), wt.is_contiguous())

flipped = wt.flip(0)
print("flip:", flipped.stride(), flipped.is_contiguous(), flipped.grad_fn.name())
try:
    flipped.view(-1)
except RuntimeError as e:
    print("view after flip:", e)

values, indices = torch.sort(wt, dim=1, descending=True)
print("sort values:", values.stride(), "indices:", indices.stride())
print(values)
print(indices)
print("argsort:", wt.argsort(dim=0).stride())
print("topk:", wt.topk(2, dim=0).values.stride())

noise = torch.rand_like(wt)
print("rand_like:", noise.stride())
print(noise)

filled = wt.masked_fill(wt > 0, 0.0)
print("masked_fill:", filled.stride(), filled.view(-1).shape)
print("tril:", wt.tril().stride(), "cummax:", wt.cummax(dim=0).values.stride())

cube = torch.arange(24.0).reshape(2, 3, 4).permute(2, 0, 1)
print("permuted:", cube.stride(), cube.flip(1).stride(), cube.sort(dim=2).values.stride())

loss = (flipped * torch.arange(12.0).reshape(4, 3)).sum() + values[:, 0].sum()
loss.backward()
print(w.grad)
