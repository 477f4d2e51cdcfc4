# Changing a tensor through its views: PyTorch records the change on the tensor itself
# (CopySlices) and the view is regenerated from it (AsStridedBackward0).
import torch

torch.manual_seed(0)
w = torch.randn(3, 4, requires_grad=True)

# scale the diagonal of an intermediate result in place
y = w.sin()
y.diagonal().mul_(10)
print(y.grad_fn.name())
y.sum().backward()
print(w.grad)
w.grad = None

# a transposed view, a flattened view, a narrowed view
z = w * 2
z.t()[0].add_(100)
z.view(-1)[::5].zero_()
z.narrow(1, 2, 2).clamp_(min=-1, max=1)
print(z)
(z ** 2).sum().backward()
print(w.grad)
w.grad = None

# a buffer filled from values that require grad
b = torch.randn(3, requires_grad=True)
m = torch.zeros(3, 3)
m.diagonal().copy_(b.exp())
print(m)
m.fill_diagonal_(1.0)
print(m.grad_fn.name(), m)
n = torch.eye(3)
n.diagonal().copy_(b)
(n @ torch.arange(3.0)).sum().backward()
print(b.grad)

# sliding windows with as_strided, and their gradient
x = torch.arange(8.0, requires_grad=True)
windows = x.as_strided((3, 4), (2, 1))
print(windows)
print(windows.grad_fn.name(), windows.is_contiguous(), windows.stride())
(windows * torch.tensor([1.0, -1.0, 2.0, 0.5])).sum().backward()
print(x.grad)

# fill_diagonal_ in its forms
print(torch.zeros(3, 5).fill_diagonal_(4))
print(torch.zeros(7, 3).fill_diagonal_(1, wrap=True))
print(torch.zeros(2, 2, 2).fill_diagonal_(-1))
try:
    torch.zeros(2, 3, 4).fill_diagonal_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    w.fill_diagonal_(0)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.as_strided((5, 5), (1, 1))
except RuntimeError as e:
    print("RuntimeError:", e)
