# torch.asarray on tensors in PyTorch 2.13: a conversion or copy stays in the graph, and an
# unspecified requires_grad means the tensor's own (PyTorch warns once); a leaf's flag given
# explicitly is set on that very tensor.
import torch

w = torch.tensor([0.25, -0.5, 1.0], requires_grad=True)
w64 = torch.asarray(w, dtype=torch.float64)
copy = torch.asarray(w, copy=True)
print(w64.grad_fn.name(), copy.grad_fn.name(), torch.asarray(w) is w)
loss = (w64 ** 3).sum() + (copy * torch.tensor([1.0, 2.0, 3.0])).sum()
loss.backward()
print(w.grad)

frozen = torch.asarray(w, requires_grad=False)
print(frozen is w, w.requires_grad)
w.requires_grad_()
data = torch.tensor([1.0, 2.0])
leaf = torch.asarray(data, requires_grad=True)
print(leaf is data, data.requires_grad, leaf.grad_fn)
(leaf * leaf).sum().backward()
print(data.grad)
print(torch.asarray([1, 2, 3]).dtype, torch.asarray([1.5, 2.5], dtype=torch.float64))
