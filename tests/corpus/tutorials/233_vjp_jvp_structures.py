# Vector-Jacobian and Jacobian-vector products with several inputs and outputs, in both APIs,
# and a gradient penalty made with create_graph=True.
import torch
from torch.autograd.functional import vjp, jvp
import torch.func as func


def f(a, b):
    return a * b.sin(), (a ** 2).sum() + b.sum()


a = torch.tensor([1.0, -2.0, 0.5])
b = torch.tensor([0.3, 0.0, 1.2])

out, grads = vjp(f, (a, b), (torch.ones(3), torch.tensor(2.0)))
print(out)
print(grads)

out, tangents = jvp(f, (a, b), (torch.ones(3), torch.zeros(3)))
print(tangents)

primal, tangent = func.jvp(f, (a, b), (torch.ones(3), torch.zeros(3)))
print(tangent)
primal, vjp_fn = func.vjp(f, a, b)
print(vjp_fn((torch.ones(3), torch.tensor(2.0))))

# gradient penalty: the norm of d loss / d x, differentiated with respect to the weights
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
x = torch.tensor([1.0, 1.0, 1.0])
_, gx = vjp(lambda t: (w * t).tanh().sum(), x, create_graph=True)
print(gx)
penalty = (gx ** 2).sum()
penalty.backward()
print(w.grad)
