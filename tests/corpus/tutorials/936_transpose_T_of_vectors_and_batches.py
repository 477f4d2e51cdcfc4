# x.T as notebooks write it on vectors (a perceptron's x.T @ w), on a batch of matrices and on
# a scalar: PyTorch reverses the dimensions (and warns, once, that this is deprecated for
# tensors that are not matrices); the gradients flow through the permutation.
import torch

torch.manual_seed(0)
x = torch.rand(3)
w = torch.randn(3, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)

y_pred = torch.sigmoid(x.T @ w + b)
print(y_pred)
loss = ((1.0 - y_pred) ** 2).sum()
loss.backward()
print(w.grad.T)
print(b.grad)

batch = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
flipped = batch.T
print(flipped.shape, flipped.grad_fn.name())
(flipped * torch.arange(24.0).reshape(4, 3, 2)).sum().backward()
print(batch.grad)

s = torch.tensor(2.5, requires_grad=True)
t = s.T
print(t, t.grad_fn.name())
(t * 3).backward()
print(s.grad)
print(x.T.shape, x.mT.shape if x.ndim >= 2 else "mT needs a matrix")
