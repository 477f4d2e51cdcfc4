# Views taken before their tensor is changed in place, used afterwards: the gradient goes
# through the change (PyTorch regenerates the view's grad_fn).
import torch

torch.manual_seed(3)
x = torch.randn(3, 4, requires_grad=True)
h = x * 2
first_row = h[0]
col = h[:, 1]
flat = h.view(-1)
h[:, 1] += 1
h.mul_(torch.tensor([1.0, 2.0, 3.0, 4.0]))
print(first_row)
print(col.grad_fn.name(), flat.grad_fn.name())
loss = (first_row ** 2).sum() + col.sum() + flat[5] * 3
loss.backward()
print(x.grad)

# a buffer filled step by step; a row read before it was written
w = torch.tensor([0.5, -1.5], requires_grad=True)
states = torch.zeros(4, 2)
prev = states[1]
for t in range(1, 4):
    states[t] = torch.tanh(states[t - 1] + w * t)
print(prev.requires_grad, prev.is_leaf)
out = (prev * prev).sum() + states[3].sum()
out.backward()
print(w.grad)

# the same view used before and after the change
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 2.0
tail = b[1:]
before = tail.sum()
b[0] = 0.0
after = (tail * tail).sum()
(before + after).backward()
print(a.grad)
