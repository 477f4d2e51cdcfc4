# Walking the graph of a masked attention score: masked_fill's node has one edge (the scores)
# when the fill value is a number, two when it is a tensor; a hook on it sees those gradients.
import torch

torch.manual_seed(2)
q = torch.randn(2, 3, requires_grad=True)
k = torch.randn(2, 3, requires_grad=True)
scores = q @ k.T
mask = torch.tensor([[False, True], [False, False]])
filled = scores.masked_fill(mask, float("-inf"))
node = filled.grad_fn
print(node.name(), [f.name() for f, _ in node.next_functions])
node.register_hook(lambda gin, gout: print("masked_fill grads:", len(gin), gin[0]))
attn = filled.softmax(dim=-1)
attn[:, 0].sum().backward()
print(q.grad)

bias = torch.tensor(-5.0, requires_grad=True)
shifted = scores.detach().masked_fill(mask, bias)
print(shifted.grad_fn.name(), len(shifted.grad_fn.next_functions))
shifted.sum().backward()
print(bias.grad)

(g,) = torch.autograd.grad(scores.masked_fill(mask, 0.0).pow(2).sum(), scores, create_graph=True)
print(g.grad_fn.name())
