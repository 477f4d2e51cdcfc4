# What an item assignment or an in-place change through a view records: CopySlices, whose
# next_functions are the tensor's previous grad_fn and the change's other operands.
import torch

x = torch.ones(3, 3, requires_grad=True)
z = torch.ones(3, requires_grad=True)


def show(name, y):
    fn = y.grad_fn
    print(name, fn.name(), [(n.name() if n is not None else None, i) for n, i in fn.next_functions])


y = x * 2
y[0] = 0
show("setitem num", y)
y = x * 2
y[0] = z
show("setitem leaf", y)
y = x * 2
y[0] = z * 3
show("setitem node", y)
y = x * 2
y[:, 1] = z.exp()
show("setitem col", y)
y = x * 2
y[0].mul_(3)
show("mul_ view", y)
y = x * 2
y[0].add_(z)
show("add_ view", y)
y = x * 2
y.fill_diagonal_(1)
show("fill_diagonal_", y)
y = x * 2
y.diagonal().copy_(z)
show("copy_ diag", y)
y = x * 2
y.t()[0].zero_()
show("zero_ t", y)
y = x * 2
y[1:, :2] += 1
show("iadd slice", y)
y = x * 2
y[[0, 2]] = 0
show("index put", y)
h = torch.zeros(3, 3)
h[0] = z
show("setitem nograd base", h)
h = torch.zeros(3, 3)
h[1] += z
show("iadd nograd base", h)
y = x * 2
y[0, 0] = z[0]
show("setitem elem", y)
y = x * 2
y[0].clamp_(min=1.5)
show("clamp_ view", y)
