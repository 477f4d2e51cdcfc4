# functools.partial as scripts use it: fixing some arguments of a function, a loss or an
# lr_lambda, a partial given to torch.func.grad.
import functools
from functools import partial
import torch
def g(a, b, scale=1.0):
    return (a + b) * scale
h = partial(g, 2)
print(h(3), partial(g, b=5)(1), functools.partial(g, 1, 2)(scale=3.0))
p2 = partial(h, scale=10.0)
print(p2(1), p2.args, p2.keywords, p2.func.__name__)
x = torch.ones(3, requires_grad=True)
f = partial(torch.sum, dim=0)
print(f(x * 2))
opt = torch.optim.SGD([x], lr=1.0)
sched = torch.optim.lr_scheduler.LambdaLR(opt, partial(lambda e, k: k ** e, k=0.5))
opt.step()
sched.step()
print(sched.get_last_lr())
print(torch.func.grad(partial(lambda x, c: (c * x ** 2).sum(), c=3.0))(torch.ones(2)))
try:
    partial(5)
except TypeError as e:
    print(e)
