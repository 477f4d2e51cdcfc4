# What the node behind split, chunk, split_with_sizes and unbind keeps for its backward:
# the dimension, the input's sizes and how the input was cut.
import torch

signal = torch.linspace(0.0, 1.0, 12).reshape(3, 4).requires_grad_()

windows = signal.split(3, dim=1)
node = windows[0].grad_fn
print(node.name(), node._saved_dim, node._saved_self_sym_sizes, node._saved_split_size)

head, tail = signal.split([1, 2])
print(tail.grad_fn.name(), tail.grad_fn._saved_dim, tail.grad_fn._saved_split_sizes)

halves = signal.chunk(2, dim=1)
print(halves[1].grad_fn.name(), halves[1].grad_fn._saved_split_size)

columns = signal.unbind(1)
print(columns[3].grad_fn.name(), columns[3].grad_fn._saved_dim)

try:
    node._saved_self
except AttributeError as e:
    print(e)

loss = sum((w * w).sum() for w in windows) + columns[0].sum()
loss.backward()
print(signal.grad)
