# Indexing with a list that holds index lists, ranges, tensors, slices or None: PyTorch 2.13
# still reads the list as a tuple of indices (NumPy's old rule), with a deprecation warning;
# a list of plain integers stays one index.
import torch

x = torch.arange(12.0).view(3, 4)
print(x[[0, 2]])
print(x[[[0, 1], [1, 3]]])
print(x[[torch.tensor([0, 2]), range(2)]])
print(x[[slice(0, 2), 1]])
print(x[[None, 1]])

w = torch.ones(3, 4, requires_grad=True)
y = w * torch.arange(12.0).view(3, 4)
y[[torch.tensor([0, 2]), range(2)]] = 0.0
print(y.grad_fn.name())
z = w * 1.0
z[range(3), range(3)] = -1.0
print(z.grad_fn.name())
(y.sum() + z.pow(2).sum()).backward()
print(w.grad)

probs = torch.softmax(torch.tensor([[1.0, 2.0, 0.5], [0.1, 0.2, 3.0]]), dim=1)
labels = torch.tensor([1, 2])
g = probs.clone()
g[[torch.arange(2), labels]] -= 1
print(g)
