# Hooks on a node (grad_fn.register_prehook / register_hook): they see the gradient of the
# output and of the inputs, and a tuple they return replaces them; handle.remove() ends one.
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
y = x * w
seen = []
def pre(gO):
    seen.append(("pre", gO[0].tolist()))
def post(gI, gO):
    seen.append(("post", [None if g is None else g.tolist() for g in gI], gO[0].tolist()))
    return (gI[0] * 10, gI[1])
h1 = y.grad_fn.register_prehook(pre)
h2 = y.grad_fn.register_hook(post)
y.sum().backward(retain_graph=True)
print(x.grad, w.grad, seen)
h2.remove()
x.grad = None
y.grad_fn.register_prehook(lambda gO: (gO[0] * 3,))
y.sum().backward()
print(x.grad)
z = (x * 2).sin()
z.grad_fn.register_hook(lambda gI, gO: print("sin hook", len(gI), gI[0] is None))
z.sum().backward()
c = torch.ones(2) * 2
q = x + c
q.grad_fn.register_hook(lambda gI, gO: print(gI))
q.sum().backward()
print(isinstance(q.grad_fn, torch.autograd.graph.Node), isinstance(x, torch.autograd.graph.Node))
