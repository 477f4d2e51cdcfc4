# An inverse-distance potential 1 / sqrt(r^2 + eps) differentiated three times, as a force and
# its stiffness are in a physics-informed loss: rsqrt's gradient is PyTorch's
# `-0.5 * grad * result.pow(3)`, so the higher derivatives keep PyTorch's bits.
import torch

for dtype in (torch.float32, torch.float64):
    r = torch.tensor([-1.7, -0.2, 0.6, 2.3], dtype=dtype, requires_grad=True)
    potential = (r * r + 0.5).rsqrt()
    force = torch.autograd.grad(potential.sum(), r, create_graph=True)[0]
    stiffness = torch.autograd.grad(force.sum(), r, create_graph=True)[0]
    third = torch.autograd.grad(stiffness.sum(), r)[0]
    print(force.grad_fn.name(), stiffness.grad_fn.name())
    print(force.tolist())
    print(stiffness.tolist())
    print(third.tolist())
