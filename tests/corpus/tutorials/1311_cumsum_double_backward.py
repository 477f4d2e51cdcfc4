# A penalty on the slope of a running total: the gradient of a cumulative sum taken with
# create_graph=True, printed, then differentiated again (a gradient-norm regulariser).
import torch

steps = torch.tensor([0.5, -1.25, 2.0, 0.75], requires_grad=True)
weights = torch.tensor([1.0, 0.5, -0.5, 2.0])
total = (steps.cumsum(0) ** 2 * weights).sum()
(grad_steps,) = torch.autograd.grad(total, steps, create_graph=True)
print(grad_steps)
print(grad_steps.grad_fn.next_functions[0][0].name())
penalty = grad_steps.pow(2).sum()
penalty.backward()
print(steps.grad)

table = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 4.0]], requires_grad=True)
(g,) = torch.autograd.grad(table.cumsum(dim=-1).exp().sum(), table, create_graph=True)
print(g)
g.sum().backward()
print(table.grad)

# one column: the gradient comes back untouched, signed zero included
col = torch.tensor([[3.0], [4.0]], requires_grad=True)
col.cumsum(1).backward(torch.tensor([[-0.0], [2.0]]))
print(col.grad)
