# torch.autograd.graph.saved_tensors_hooks, as in the autograd docs
import torch


def pack_hook(x):
    print("Packing", x)
    return x


def unpack_hook(x):
    print("Unpacking", x)
    return x


a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
y.sum().backward()
print(a.grad, b.grad)

# what each node saves: exp its result, sin its input, pow its input
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    e = x.exp()
    s = x.sin()
    p = x.pow(2)
    total = (e + s + p).sum()
total.backward()
print(x.grad)

# the hooks may change what is saved: the backward uses what unpack gives back
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 4, lambda t: t / 4):
    y = torch.pow(x, 2)
y.sum().backward()
print(x.grad, x.grad.equal(2 * x))

x.grad = None
with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 2, lambda t: t):
    y = x.sin()
y.sum().backward()
print(x.grad)

# counting the calls: unpack runs at every backward that goes through the node
counts = {"pack": 0, "unpack": 0}


def counting_pack(t):
    counts["pack"] += 1
    return t


def counting_unpack(t):
    counts["unpack"] += 1
    return t


w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
v = torch.tensor([[0.5], [1.5]], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(counting_pack, counting_unpack):
    h = torch.relu(w @ v)
    out = (h.tanh() * h).sum()
print(counts)
out.backward(retain_graph=True)
print(counts)
out.backward()
print(counts, w.grad, v.grad)

# hooks registered on one saved tensor
x = torch.randn(5, requires_grad=True)
y = x.pow(2)
y.grad_fn._raw_saved_self.register_hooks(lambda t: print("pack once") or t, lambda t: print("unpack once") or t)
y.sum().backward()
print(torch.allclose(x.grad, 2 * x))
