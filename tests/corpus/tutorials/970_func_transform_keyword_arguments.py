# Keyword arguments to functions made by torch.func: grad and vmap hand them on to the
# function; the Jacobian wrappers take positional arguments only.
import torch
from torch.func import grad, hessian, jacfwd, jacrev, linearize, vmap


def energy(x, stiffness=1.0):
    return 0.5 * stiffness * (x**2).sum() + x.prod()


x = torch.tensor([1.0, -2.0, 0.5])
print(grad(energy)(x, stiffness=3.0))
print(vmap(grad(energy))(torch.stack([x, 2 * x]), stiffness=3.0))

for transform in (jacrev, jacfwd, hessian):
    try:
        transform(energy)(x, stiffness=3.0)
    except TypeError as err:
        print(transform.__name__, "->", err)

print(jacrev(lambda v: energy(v, stiffness=3.0))(x))
print(hessian(lambda v: energy(v, 3.0))(x))

value, jvp_fn = linearize(lambda v: v.exp() * 2.0, x)
try:
    jvp_fn(torch.ones(3), scale=2.0)
except TypeError as err:
    print(err)
print(jvp_fn(torch.ones(3)))

try:
    jacrev(energy)(x, has_aux=True)
except TypeError as err:
    print(err)
