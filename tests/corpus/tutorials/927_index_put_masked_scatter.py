# Writing into tensors by index lists and masks without Python loops: index_put with and
# without accumulation (a histogram of class counts, a sparse update), masked_scatter to fill
# the holes of a grid, and how gradients reach the values written.
import torch

labels = torch.tensor([2, 0, 2, 1, 2, 0])
counts = torch.zeros(3).index_put((labels,), torch.tensor(1.0), accumulate=True)
print(counts)

table = torch.zeros(3, 4)
rows, cols = torch.tensor([0, 2, 2]), torch.tensor([1, 0, 3])
table.index_put_((rows, cols), torch.tensor([1.5, -2.0, 4.0]))
print(table)
print(torch.index_put(table, (torch.tensor([1]),), torch.arange(4.0)))

w = torch.ones(4, requires_grad=True)
updates = torch.tensor([0.5, 0.25, 0.25], requires_grad=True)
new_w = w.index_put((torch.tensor([3, 0, 3]),), updates, accumulate=True)
print(new_w, new_w.grad_fn.name())
(new_w * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
print(w.grad, updates.grad)

grid = torch.tensor([[1.0, 0.0, 3.0], [0.0, 5.0, 0.0]], requires_grad=True)
holes = grid == 0
fill = torch.tensor([10.0, 20.0, 30.0, 40.0], requires_grad=True)
filled = grid.masked_scatter(holes, fill)
print(filled, filled.grad_fn.name())
filled.pow(2).sum().backward()
print(grid.grad, fill.grad)

canvas = torch.zeros(2, 3)
canvas.masked_scatter_(torch.tensor([True, False, True]), torch.arange(1.0, 7.0))
print(canvas)
try:
    torch.zeros(3).masked_scatter(torch.tensor([True, True, True]), torch.ones(2))
except RuntimeError as e:
    print(e)
