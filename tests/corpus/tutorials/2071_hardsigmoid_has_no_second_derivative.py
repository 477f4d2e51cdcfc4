# A gate built from hardsigmoid inside a loss that needs a gradient penalty: PyTorch records
# hardsigmoid's gradient with no derivative of its own, so the penalty's backward fails.
import torch
import torch.nn as nn
from torch.func import hessian, jacrev

gate = nn.Hardsigmoid()
z = torch.tensor([-4.0, -1.5, 0.0, 2.5, 3.0], requires_grad=True)

dz = torch.autograd.grad(gate(z * 1.5).sum(), z, create_graph=True)[0]
print(dz)
print(dz.requires_grad, dz.grad_fn.name())
print(len(dz.grad_fn.next_functions))

penalty = (dz - 0.1).pow(2).sum()
try:
    penalty.backward()
except RuntimeError as err:
    print("penalty:", err)
print(z.grad)

# without create_graph the first derivative is a plain tensor
plain = torch.autograd.grad(gate(z * 1.5).sum(), z)[0]
print(plain, torch.equal(plain, dz.detach()))

for name, transform in (("hessian", hessian), ("jacrev twice", lambda f: jacrev(jacrev(f)))):
    try:
        transform(lambda v: gate(v).sum())(z.detach())
    except RuntimeError as err:
        print(name + ":", err)
