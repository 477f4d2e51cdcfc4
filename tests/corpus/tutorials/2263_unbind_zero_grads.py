# Splitting a parameter vector into named pieces and checking which pieces the
# loss actually depends on: the gradients of unused or zero-weighted pieces
# keep the sign of zero the backward pass produces.
import torch

params = torch.tensor([0.3, -1.2, 2.0, 0.7], requires_grad=True)
scale, shift, gate, bias = params.unbind()
loss = scale * -0.0 + shift * 2 + gate * 0.0
loss.backward()
print("unbind grad:", params.grad)
print("signbit:", params.grad.signbit().tolist())

# the same with split and chunk, on float64 pieces of a matrix
w = torch.linspace(-1, 1, 12, dtype=torch.float64).reshape(4, 3).requires_grad_()
top, bottom = w.split([1, 3])
(top * -0.0).sum().add((bottom**2).sum()).backward()
print(w.grad)

w.grad = None
left, mid, right = w.chunk(3, dim=1)
(left.sum() * -0.0 + right.sum()).backward()
print(w.grad)

# iterating a tensor unbinds its first dimension
x = torch.ones(3, 2, requires_grad=True)
acc = torch.zeros(())
for i, row in enumerate(x):
    acc = acc + row.sum() * (-0.0 if i != 1 else 1.0)
acc.backward()
print(x.grad)

# the node itself, called with one gradient per piece
a, b, c, d = params.unbind()
print(a.grad_fn.name(), a.grad_fn(torch.tensor(-0.0), None, torch.tensor(5.0), None))

# the *_copy variants record the same node under a _copy name
v = torch.arange(6.0, requires_grad=True)
first, rest = torch.split_copy(v, 4)
(first.sum() * -0.0 + rest.sum()).backward()
print(v.grad, first.grad_fn.name())
