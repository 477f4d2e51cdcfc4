# Forward-mode Jacobians of a small network with respect to its input only: the input itself
# does not require grad, but the weights the function closes over do, so the tangents that
# multiply by them stay on the weights' graph (the Jacobian shows a grad_fn) and can be
# differentiated again; tangents that never touch a weight come out plain.
import torch
import torch.nn as nn
from torch.autograd.functional import jacobian

torch.manual_seed(3)
layer = nn.Linear(3, 2)
scale = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
point = torch.tensor([0.2, -0.7, 1.1])


def through_layer(v):
    return torch.tanh(layer(v))


def scaled_relu(v):
    return torch.relu(v * scale)


def shifted_relu(v):
    return torch.relu(v) + scale.sum()


J = jacobian(through_layer, point, vectorize=True, strategy="forward-mode")
print(J)
print(J.requires_grad, J.grad_fn.name())

J2 = jacobian(scaled_relu, point, vectorize=True, strategy="forward-mode")
print(J2)

# a Jacobian that does not touch the weights through a tangent stays a plain tensor
J3 = jacobian(shifted_relu, point, vectorize=True, strategy="forward-mode")
print(J3, J3.requires_grad)

# the attached Jacobian is differentiable with respect to the weights
J.pow(2).sum().backward()
print(layer.weight.grad)
J2.sum().backward()
print(scale.grad)

# the same Jacobians from reverse mode: equal values, and reverse mode detaches its result
R = jacobian(through_layer, point)
print(torch.allclose(R, J.detach()), R.grad_fn)

with torch.no_grad():
    print(jacobian(scaled_relu, point, vectorize=True, strategy="forward-mode"))
