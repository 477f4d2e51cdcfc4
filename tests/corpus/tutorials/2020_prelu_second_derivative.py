# Second derivatives through PReLU: the gradient taken with create_graph=True is itself
# differentiable, w.r.t. the input and the learned slope.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([-2.0, -0.5, 0.0, 0.75, 3.0], dtype=torch.float64, requires_grad=True)
a = torch.tensor([0.2], dtype=torch.float64, requires_grad=True)

y = F.prelu(x, a)
dy_dx, = torch.autograd.grad(y.pow(3).sum(), x, create_graph=True)
print("dy/dx:", dy_dx)
print("node:", dy_dx.grad_fn.name())
d2x, d2a = torch.autograd.grad(dy_dx.sum(), [x, a])
print("d2/dx2:", d2x)
print("d2/dx da:", d2a)

# gradient of the slope, and its own gradient
y = F.prelu(x, a)
ga, = torch.autograd.grad((y * y).sum(), a, create_graph=True)
print(ga, ga.grad_fn.name())
print(torch.autograd.grad(ga.sum(), [x, a]))

# only the first derivative's node, no other use of x: zeros, as PyTorch materializes them
y = F.prelu(x, a)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print([type(n).__name__ if n is not None else None for n, _ in g.grad_fn.next_functions])
print(torch.autograd.grad(g.sum(), x, allow_unused=True, materialize_grads=True))

# a module with one slope per channel, a gradient penalty as in WGAN-GP training
torch.manual_seed(3)
act = nn.PReLU(num_parameters=2).double()
inp = torch.randn(3, 2, 4, dtype=torch.float64, requires_grad=True)
out = act(inp).pow(2).mean()
grad_inp, = torch.autograd.grad(out, inp, create_graph=True)
penalty = grad_inp.norm(2) ** 2
penalty.backward()
print("penalty:", round(penalty.item(), 6))
print("slope grad:", act.weight.grad)
print("input grad sum:", round(inp.grad.sum().item(), 6))

# float32 as well
x32 = torch.tensor([[-1.5, 2.0], [0.5, -3.0]], requires_grad=True)
w32 = torch.tensor([0.1, 0.3], requires_grad=True)
h, = torch.autograd.grad(torch.prelu(x32, w32).pow(2).sum(), x32, create_graph=True)
print(h)
h.sum().backward()
print(x32.grad, w32.grad)
