# Flipping signs with torch.copysign inside a loss: what flows back to the magnitudes, and
# what happens at a magnitude of exactly zero (the gradient there is zero, and its second
# derivative is not defined).
import torch

mag = torch.tensor([0.0, -0.0, 1.5, -2.0, 0.25], requires_grad=True)
signs = torch.tensor([-1.0, 1.0, -1.0, 1.0, -3.0])
signed = torch.copysign(mag, signs)
print(signed)

upstream = torch.tensor([1.0, -1.0, 2.0, -0.5, 1.0])
signed.backward(upstream)
print("grad:", mag.grad)

# second derivative through the recorded gradient
mag.grad = None
(g,) = torch.autograd.grad(torch.copysign(mag, signs), mag, torch.ones(5), create_graph=True)
print("first:", g)
print("second:", torch.autograd.grad(g.sum(), mag)[0])

# the same Jacobian from torch.func, both ways round
f = lambda m: torch.copysign(m, signs)
print(torch.func.jacrev(f)(mag.detach()).diagonal())
print(torch.func.jvp(f, (mag.detach(),), (torch.ones(5),))[1])
