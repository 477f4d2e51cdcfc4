# Printing gradients with hooks: PyTorch runs a leaf's hooks (and its sum into .grad) as soon
# as the last operation that feeds it has run, before the other nodes, so leaf and
# intermediate hooks print interleaved in the engine's order.
import torch

w = torch.tensor([0.5, -1.0], requires_grad=True)
b = torch.tensor(0.25, requires_grad=True)
x = torch.tensor([2.0, 3.0])
w.register_hook(lambda g: print("w hook", g))
b.register_hook(lambda g: print("b hook", g))

h = w * x
h.register_hook(lambda g: print("h hook", g))
s = h.sum() + b
s.register_hook(lambda g: print("s hook", g))
out = torch.tanh(s) * w[0]
out.register_hook(lambda g: print("out hook", g))
out.backward()
print("after", w.grad, b.grad)

# a hook on an intermediate sees a leaf's .grad already summed when that leaf was finished
a = torch.tensor(1.5, requires_grad=True)
c = torch.tensor(-2.0, requires_grad=True)
u = a * c
v = u * u + c
u.register_hook(lambda g: print("u hook sees c.grad", c.grad))
c.register_post_accumulate_grad_hook(lambda p: print("c accumulated", p.grad))
a.register_post_accumulate_grad_hook(lambda p: print("a accumulated", p.grad))
v.backward()

# torch.autograd.grad runs the hooks in the same order
p = torch.tensor([1.0, 2.0], requires_grad=True)
q = torch.tensor([3.0, -1.0], requires_grad=True)
p.register_hook(lambda g: print("p", g))
q.register_hook(lambda g: print("q", g))
m = p * 2
m.register_hook(lambda g: print("m", g))
r = (m * q).sum()
print(torch.autograd.grad(r, [p, q]))

# a hook on a leaf's AccumulateGrad node
k = torch.tensor([1.0, 1.0], requires_grad=True)
y = (k * 3).exp().sum()
y.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0].register_hook(
    lambda gin, gout: print("AccumulateGrad hook", gout)
)
y.register_hook(lambda g: print("y", g))
y.backward()

# a node's metadata dict, shared by every look at the node, carried to its hooks
y2 = (k * 2).sum()
print(y2.grad_fn.metadata)
y2.grad_fn.metadata["step"] = "sum"
y2.grad_fn.register_hook(lambda gin, gout: print("hook on", y2.grad_fn.metadata["step"]))
y2.backward()
print(y2.grad_fn.metadata, y2.grad_fn.next_functions[0][0].metadata)
