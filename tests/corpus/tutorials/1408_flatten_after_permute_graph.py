# Channels-last features flattened for a linear head: the reshape has to copy, and the graph
# records that copy. Then a small check that the gradient still lands in the right places.
import torch

torch.manual_seed(8)
feats = torch.randn(2, 3, 2, requires_grad=True)      # (batch, channels, width)
moved = feats.permute(0, 2, 1)                        # (batch, width, channels): not contiguous
flat = moved.reshape(2, -1)
same = feats.reshape(2, -1)                           # contiguous: a plain view

node = flat.grad_fn
print(node.name(), [f.name() for f, _ in node.next_functions])
copy = node.next_functions[0][0]
print(copy.name(), [f.name() for f, _ in copy.next_functions])
print(same.grad_fn.name())
print(moved.flatten(1).grad_fn.next_functions[0][0].name())

head = torch.nn.Linear(6, 1)
out = head(flat).sum()
out.backward()
print(feats.grad.shape)
print(torch.allclose(feats.grad.permute(0, 2, 1).reshape(2, -1), head.weight.expand(2, 6)))
