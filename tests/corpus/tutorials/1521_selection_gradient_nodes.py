# What autograd records for the gradient of a selection when create_graph=True:
# the node behind x.grad (and one level of its next_functions).
import torch

x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]], requires_grad=True)


def show(label, y):
    x.grad = None
    (y * y).sum().backward(create_graph=True)
    node = x.grad.grad_fn
    print(label, node.name(), [f[0].name() for f in node.next_functions if f[0] is not None])
    print(x.grad)


show("gather", x.gather(1, torch.tensor([[0, 2], [1, 0]])))
show("sort", x.sort(dim=1).values)
show("topk", x.topk(2, dim=1).values)
show("max(dim)", x.max(dim=1).values)
show("min(dim)", torch.min(x, 1)[0])
show("max", x.max())
show("min", x.min())
show("index_select", x.index_select(1, torch.tensor([2, 0])))
show("masked_select", x.masked_select(x > 0))
show("flip", x.flip(1))
show("roll", torch.roll(x, 1, 1))
show("tril", x.tril())
show("triu", torch.triu(x, 1))
show("cummax", x.cummax(dim=1).values)

# the second derivative itself goes through those nodes
g, = torch.autograd.grad(x.max(dim=0).values.pow(3).sum(), x, create_graph=True)
print(g.grad_fn.name(), torch.autograd.grad(g.sum(), x)[0])
