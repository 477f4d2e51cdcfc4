import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2 + 3 * x

# a vector-Jacobian product with grad_outputs
v = torch.tensor([1.0, 0.1, 0.01])
(vjp,) = torch.autograd.grad(y, x, grad_outputs=v, retain_graph=True)
print(vjp)

# the whole Jacobian at once: one grad_outputs row per output element
eye = torch.eye(3)
(jac,) = torch.autograd.grad(y, x, grad_outputs=eye, is_grads_batched=True, retain_graph=True)
print(jac)

# grad_outputs as a list, one entry per output
y1 = x.sum()
y2 = (x * x).sum()
g = torch.autograd.grad([y1, y2], x, grad_outputs=[torch.tensor(2.0), torch.tensor(0.5)])
print(g)
print(type(g).__name__, len(g))
