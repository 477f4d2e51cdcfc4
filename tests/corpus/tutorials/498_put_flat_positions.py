# Writing into a tensor by flat positions: Tensor.put / put_ and their gradients.
import torch

grid = torch.zeros(3, 4, requires_grad=True)
vals = torch.tensor([1.5, -2.0, 0.25], requires_grad=True)
where = torch.tensor([0, 5, -1])  # flat positions; -1 is the last element

out = grid.put(where, vals)
print(out)
weights = torch.arange(12.0).reshape(3, 4)
(out * weights).sum().backward()
print("grid.grad:", grid.grad)
print("vals.grad:", vals.grad)

# accumulate=True adds, and repeated positions add up
counts = torch.zeros(5)
counts.put_(torch.tensor([1, 3, 1, 1]), torch.ones(4), accumulate=True)
print(counts)

# in place on a tensor in the graph
h = grid * 2
h.put_(torch.tensor([[2, 3]]), vals[:2].reshape(1, 2))
print(h.grad_fn.name())
print(torch.put(torch.arange(6).view(2, 3), torch.tensor([4]), torch.tensor([40])))

for bad in (torch.tensor([1.0]), torch.tensor([12]), torch.tensor([0, 1])):
    try:
        torch.zeros(3, 4).put_(bad, torch.tensor([9.0]))
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
try:
    grid.put_(torch.tensor([0]), torch.tensor([1.0]))
except RuntimeError as e:
    print(e)
