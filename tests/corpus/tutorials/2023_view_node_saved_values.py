# Looking inside the autograd graph: what the view nodes of slicing, indexing, view, expand
# and permute remember for their backward pass.
import torch

x = torch.arange(24.0).reshape(4, 6).requires_grad_()

rows = x[1:4:2]
f = rows.grad_fn
print(f.name(), f._saved_dim, f._saved_start, f._saved_end, f._saved_step, f._saved_self_sym_sizes)

tail = x[:, 3:]
f = tail.grad_fn
print(f.name(), f._saved_dim, f._saved_start, f._saved_end, f._saved_step)

last_two = x[-2:]
print(last_two.grad_fn._saved_start, last_two.grad_fn._saved_end)

col = x[..., 2]
f = col.grad_fn
print(f.name(), f._saved_dim, f._saved_index, f._saved_self_sym_sizes)

neg = x[:, -1]
print(neg.grad_fn._saved_index)

inner = x[1:3, 2:5]
print(inner.grad_fn._saved_dim, inner.grad_fn._saved_self_sym_sizes)

part = x.narrow(1, 2, 3)
print(part.grad_fn._saved_start, part.grad_fn._saved_end)

flat = x.view(2, 12)
print(flat.grad_fn.name(), flat.grad_fn._saved_self_sym_sizes)

big = x[:1].expand(3, 6)
print(big.grad_fn.name(), big.grad_fn._saved_self_sym_sizes)

p = x.reshape(2, 2, 6).permute(2, 0, 1)
print(p.grad_fn.name(), p.grad_fn._saved_dims)

# the gradient flows back through all of them
(rows.sum() + 2 * tail.sum() + col.sum() + flat[0].sum() + big.sum() + p[0].sum()).backward()
print(x.grad)
