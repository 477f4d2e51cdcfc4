# Picking columns with a list or index_select gives a fresh row-major tensor in PyTorch, so
# .view() works on it and its sum adds in row order; the same for a running sum.
import torch

torch.manual_seed(8)
w = torch.randn(4, 5, dtype=torch.float64, requires_grad=True)
cols = w[:, [0, 0, 1]]
print(cols.is_contiguous(), cols.stride())
flat = cols.view(-1)
print(flat.shape, flat.grad_fn.name())
picked = torch.index_select(w, -1, torch.tensor([0, 0, 1]))
print(picked.is_contiguous(), picked.sum().item())
picked.backward(torch.full_like(picked, 0.5))
print(w.grad)

x = torch.arange(12.0).reshape(3, 4)
print(x.t()[:, [2, 0]].view(2, 4))
print(x[::2][:, [1, 3]].stride())
run = x.t().cumsum(0)
print(run.is_contiguous(), run.view(-1))
feat = torch.randn(6, 3)
emb = feat[torch.tensor([[0, 5], [2, 2]])]
print(emb.stride(), emb.view(2, -1).shape)

# a pick along the only dim of a vector is a 0-d tensor, its gradient one-hot
v = torch.tensor([1.2, -0.7, 1.4, 3.0], requires_grad=True)
top = v.max(0).values
top.backward()
print(top, v.grad, v[torch.tensor(2)], torch.mode(v.round(), -1))
