# Splitting a parameter vector into named pieces with Tensor.split(split_size=...), as
# code that packs several small tensors into one flat buffer does, then checking the
# gradient each piece receives.
import torch

torch.manual_seed(3)
flat = torch.randn(10, requires_grad=True)
w, b = flat.split(split_size=[8, 2])
w = w.view(4, 2)
x = torch.randn(5, 4)
y = torch.tanh(x @ w + b)
loss = y.pow(2).mean()
loss.backward()
print(loss)
for piece in flat.grad.split(split_size=4):
    print(piece)
chunks = torch.split(flat.detach(), split_size_or_sections=3)
print(len(chunks), [c.shape[0] for c in chunks])
print(flat.detach().split(5, dim=0)[1])
