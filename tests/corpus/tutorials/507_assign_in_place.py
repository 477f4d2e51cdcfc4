# Writing into tensors the graph needs: what autograd records and how it complains.
# (A forum-style walk through `x[:] = ...`, fill_/copy_, `x[i] += ...` and the version counter.)
import torch

torch.manual_seed(0)
w = torch.tensor([2.0, 3.0], requires_grad=True)
scale = torch.tensor(5.0, requires_grad=True)


def try_backward(loss):
    try:
        loss.backward()
        print("  backward ran, w.grad =", w.grad)
    except RuntimeError as err:
        print("  RuntimeError:", str(err).split(". Hint")[0])


# Assigning to the whole tensor is a fill (or a copy), not a slice assignment.
h = w * 2
loss = (h * w).sum()
h[:] = 4
print("h[:] = 4     ->", h.grad_fn.name(), "version", h._version)
try_backward(loss)

h = w * 2
loss = (h * w).sum()
h[0:10] = torch.tensor([1.0, 2.0])
print("h[0:10] = t  ->", h.grad_fn.name(), "version", h._version)
try_backward(loss)

h = w * 2
loss = (h * w).sum()
h[-2:] = 0.5
print("h[-2:] = 0.5 ->", h.grad_fn.name(), "version", h._version)
try_backward(loss)

h = w * 2
loss = (h * w).sum()
h.fill_(1.5)
print("h.fill_(1.5) ->", h.grad_fn.name())
try_backward(loss)

# A one-element tensor on the right: the fill sends its gradient there.
h = w * 2
h[...] = scale * 2
h.sum().backward()
print("scale.grad after h[...] = scale * 2:", scale.grad)

# Augmented item assignment changes a view in place and then assigns it back: two versions.
m = (w * 1).reshape(2, 1) * torch.ones(2, 3)
m[0] += 1
print("m[0] += 1    ->", m.grad_fn.name(), "version", m._version)
m[:] *= 2
print("m[:] *= 2    ->", m.grad_fn.name(), "version", m._version)
m[m > 5] = 0
print("m[m > 5] = 0 ->", m.grad_fn.name(), "version", m._version)
m[:, [0, 2]] -= 1
print("m[:, [0, 2]] -= 1 ->", m.grad_fn.name(), "version", m._version)
m.sum().backward()
print("w.grad:", w.grad)

# In-place changes of shape count as versions too.
h = w * 2
loss = (h * w).sum()
h.unsqueeze_(0)
print("h.unsqueeze_(0) ->", h.grad_fn.name(), "version", h._version, "shape", tuple(h.shape))
try_backward(loss)

# A vector times a matrix is squeezed in place by matmul: its result starts at version 1.
v = torch.tensor([1.0, 3.0])
A = torch.tensor([[2.0], [1.0]], requires_grad=True)
b = torch.tensor([9.0], requires_grad=True)
d = torch.matmul(v, A)
print("v @ A:", d.grad_fn.name(), "version", d._version)
out = torch.matmul(d, b)
d[:] = 4
try:
    out.backward()
except RuntimeError as err:
    print("RuntimeError:", str(err).split(". Hint")[0])

# Random draws in place are recorded under their own names.
for name in ["normal_", "uniform_", "bernoulli_", "exponential_"]:
    h = w * 2
    getattr(h, name)()
    print(name, "->", h.grad_fn.name(), h)
