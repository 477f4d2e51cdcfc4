# Second derivatives through a parameter vector split into pieces: with
# create_graph=True the gradient of the whole vector is built from the pieces'
# gradients (stacked for unbind, concatenated for split/chunk).
import torch

theta = torch.tensor([1.5, -0.5, 2.0], dtype=torch.float64, requires_grad=True)
a, b, c = theta.unbind()
energy = a * b**2 + torch.sin(c) * -0.0
(grad,) = torch.autograd.grad(energy, theta, create_graph=True)
print(grad)
print([type(f).__name__ if f is not None else None for f, _ in grad.grad_fn.next_functions])
hess = torch.stack([torch.autograd.grad(gi, theta, retain_graph=True)[0] for gi in grad])
print(hess)

w = torch.linspace(0.5, 2.0, 6, dtype=torch.float64, requires_grad=True)
head, tail = w.split([2, 4])
loss = (head**3).sum() + tail.prod()
(g,) = torch.autograd.grad(loss, w, create_graph=True)
print(g.grad_fn.name(), g)
g.pow(2).sum().backward()
print(w.grad)

# only one chunk used: the others' places are zeros in the concatenation
v = torch.arange(1.0, 7.0, dtype=torch.float64, requires_grad=True)
(g2,) = torch.autograd.grad((v.chunk(3)[1] ** 2).sum(), v, create_graph=True)
print(g2, len(g2.grad_fn.next_functions))
