# Scatter and gather with an index that selects nothing (a filtered list of positions that
# came out empty). The forward pass is a no-op; what about the gradients?
import torch

torch.manual_seed(11)
table = torch.randn(3, 4, requires_grad=True)
updates = torch.randn(3, 4, requires_grad=True)

keep = torch.tensor([5, 7, 9])
picked = keep[keep < 0]  # nothing passes the filter
print(picked, picked.shape)

out = table.scatter(0, picked, 1.0)
print(torch.equal(out, table), out.grad_fn.name())
out.sum().backward()
print(table.grad)

for name in ["scatter", "scatter_add"]:
    for idx in [picked, picked.view(0, 1), torch.zeros(2, 0, dtype=torch.long)]:
        res = getattr(table, name)(1, idx, updates)
        try:
            res.pow(2).sum().backward()
        except RuntimeError as err:
            print(name, tuple(idx.shape), "->", err)

g = table.gather(1, picked)
print(g, g.shape)
g2 = torch.gather(table, 0, torch.empty(0, 2, 5, dtype=torch.long))
print(g2.shape, g2.grad_fn.name())
table.grad = None
(g2.sum() + table.sum()).backward()
print(table.grad)

# a 0-d tensor scatters as one element
s = torch.tensor(4.0, requires_grad=True)
t = s.scatter(0, torch.tensor(0), torch.tensor(-1.0))
print(t, t.grad_fn.name())
