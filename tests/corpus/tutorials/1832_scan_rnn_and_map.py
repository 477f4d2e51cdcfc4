# A small recurrent cell written with torch's scan (carry, step output), and map over the
# rows of a batch; gradients through both.
import torch
from torch._higher_order_ops import map as hmap
from torch._higher_order_ops import scan

torch.manual_seed(0)
W_h = (torch.randn(4, 4, dtype=torch.float64) * 0.3).requires_grad_()
W_x = (torch.randn(3, 4, dtype=torch.float64) * 0.3).requires_grad_()
seq = torch.randn(5, 3, dtype=torch.float64)
h0 = torch.zeros(4, dtype=torch.float64)


def cell(h, x_t):
    h_next = torch.tanh(h @ W_h + x_t @ W_x)
    return h_next, h_next.sum()


h_last, per_step = scan(cell, h0, seq)
print(h_last)
print(per_step)
loss = per_step.pow(2).mean() + h_last.norm()
loss.backward()
print(W_h.grad)
print(W_x.grad.sum())

# cumulative sum from the end, along dim 1
cs, partial = scan(lambda c, col: (c + col, c + col),
                   torch.zeros(2), torch.arange(8.0).reshape(2, 4), dim=1, reverse=True)
print(cs, partial, sep="\n")

# a pytree carry: (running sum, running product)
(s, p), outs = scan(lambda c, x: ((c[0] + x, c[1] * x), {"mean": (c[0] + x) / 2}),
                    (torch.zeros(2), torch.ones(2)),
                    torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
print(s, p, outs)

batch = torch.linspace(-1, 1, 6, dtype=torch.float64).reshape(3, 2).requires_grad_()
scale = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
rows = hmap(lambda r, k: (r * k).exp().sum(), batch, scale)
print(rows)
rows.sum().backward()
print(batch.grad, scale.grad)

pairs = hmap(lambda d: d["a"] @ d["b"], {"a": torch.ones(2, 2, 3), "b": torch.ones(2, 3, 1)})
print(pairs.shape, pairs.squeeze())
