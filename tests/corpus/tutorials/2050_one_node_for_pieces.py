# The pieces of one tensor (split, chunk, unbind) and the results of a decomposition come
# from one backward node: every piece shows the same grad_fn, whose hooks see all pieces'
# gradients at once (None for a piece no loss used).
import torch

w = torch.linspace(-1.0, 1.0, 6, dtype=torch.float64, requires_grad=True)
left, middle, right = w.chunk(3)
node = middle.grad_fn
print(node.name(), node is left.grad_fn, node is right.grad_fn)
print(middle.output_nr, right.output_nr)

node.metadata["tag"] = "pieces of w"
print(right.grad_fn.metadata)

seen = []


def before(grad_outputs):
    seen.append(["-" if g is None else g.tolist() for g in grad_outputs])
    # double every gradient that arrives: all pieces go through this node
    return tuple(None if g is None else 2 * g for g in grad_outputs)


def after(grad_inputs, grad_outputs):
    seen.append([g.tolist() for g in grad_inputs])


h1 = node.register_prehook(before)
h2 = node.register_hook(after)
loss = (left * left).sum() + 3 * right.sum()
loss.backward()
print(seen)
print(w.grad)

h1.remove()
h2.remove()
w.grad = None
rows = torch.arange(6.0, dtype=torch.float64).reshape(2, 3).requires_grad_()
first, second = rows.unbind(0)
print(first.grad_fn is second.grad_fn, first.grad_fn.name())
calls = []
first.grad_fn.register_prehook(lambda go: calls.append(len(go)))
(first * second).sum().backward()
print(calls, rows.grad)

a = torch.tensor([[4.0, 1.0], [1.0, 3.0]], dtype=torch.float64, requires_grad=True)
values, vectors = torch.linalg.eigh(a)
print(values.grad_fn is vectors.grad_fn, values.grad_fn.name())
print(values.grad_fn.next_functions[0][0].variable is a)
std, mean = torch.std_mean(torch.tensor([1.0, 2.0, 4.0], requires_grad=True))
print(std.grad_fn is mean.grad_fn, mean.grad_fn.name())
