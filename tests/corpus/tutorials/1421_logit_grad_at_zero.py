# The gradient of torch.logit at the ends of [0, 1]: probabilities that are exactly 0 (also
# a -0.0 left by rounding) or 1 give infinite gradients, and values outside [0, 1] give nan.
import torch

p = torch.tensor([-0.0, 0.0, 0.2, 0.5, 1.0, 1.2], requires_grad=True)
torch.logit(p).backward(torch.tensor([1.0, 1.0, 1.0, -2.0, -1.0, 1.0]))
print(p.grad)

# with eps=0.0 nothing is clamped away, and the ends stay infinite
q = torch.tensor([-0.0, 0.3, 1.0], dtype=torch.float64, requires_grad=True)
torch.logit(q, eps=0.0).sum().backward()
print(q.grad)

# with a real eps the clamped ends get no gradient at all
r = torch.tensor([-0.0, 0.3, 1.0], requires_grad=True)
torch.logit(r, eps=1e-6).sum().backward()
print(r.grad)

# the differentiable (create_graph) rule divides: -0.0 gives -inf there
s = torch.tensor([-0.0, 0.3], requires_grad=True)
print(torch.autograd.grad(torch.logit(s).sum(), s, create_graph=True)[0])
