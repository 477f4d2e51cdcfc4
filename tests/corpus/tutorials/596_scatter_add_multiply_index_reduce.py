# scatter_ with reduce= (the older form) and index_reduce_ from the docs
import torch

x = torch.full((2, 4), 2.)
print(x.scatter_(1, torch.tensor([[2], [3]]), 1.23, reduce='multiply'))
y = torch.full((2, 4), 2.)
print(y.scatter_(1, torch.tensor([[2], [3]]), 1.23, reduce='add'))
src = torch.arange(1, 11).reshape((2, 5))
index = torch.tensor([[0, 1, 2, 0]])
print(torch.zeros(3, 5, dtype=src.dtype).scatter_(0, index, src, reduce='add'))
print(torch.ones(3, 5).scatter(0, index, src.float(), reduce='multiply'))

w = torch.ones(3, 5, requires_grad=True)
z = w.scatter(0, index, src.float(), reduce='add')
print(z.grad_fn.name())
try:
    z.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

t = torch.empty(5, 3).fill_(2)
t2 = torch.tensor([[1., 2., 3.], [4., 5., 6.], [7., 8., 9.], [10., 11., 12.]], dtype=torch.float)
index = torch.tensor([0, 4, 2, 0])
print(t.index_reduce_(0, index, t2, 'prod'))
t = torch.empty(5, 3).fill_(2)
print(t.index_reduce_(0, index, t2, 'prod', include_self=False))

base = torch.tensor([[1., 5.], [2., 0.], [3., 1.]], requires_grad=True)
rows = torch.tensor([[4., 4.], [1., 2.], [6., 0.]], requires_grad=True)
r = base.index_reduce(0, torch.tensor([2, 0, 2]), rows, 'amax')
print(r)
r.sum().backward()
print(base.grad)
print(rows.grad)
mean = base.index_reduce(1, torch.tensor([1, 1, 0]), torch.arange(9.).reshape(3, 3), 'mean')
print(mean)
