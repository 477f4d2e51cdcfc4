# Calibrating probabilities in logit space: the loss is written on logit(p), and its gradient
# with respect to p is g / (p (1 - p)). Printed with all of float32's digits, with and
# without eps, and once recorded for a second derivative.
import torch

torch.manual_seed(21)
p = torch.rand(10, requires_grad=True)
target = torch.randn(10)

z = torch.logit(p)
loss = ((z - target) ** 2).mean()
loss.backward()
print(loss)
print([f"{v:.9g}" for v in p.grad.tolist()])

q = p.detach().clone().requires_grad_()
zq = torch.logit(q, eps=0.15)
zq.backward(target)
print([f"{v:.9g}" for v in q.grad.tolist()])

# edges: outside [0, 1] the gradient is nan, at 0 and 1 it is infinite
e = torch.tensor([-0.25, 0.0, 0.5, 1.0], requires_grad=True)
torch.logit(e).backward(torch.tensor([1.0, 1.0, 1.0, -1.0]))
print(e.grad)

# second derivative: d2/dp2 logit(p) = (2p - 1) / (p (1 - p))^2
r = torch.tensor([0.2, 0.5, 0.9], dtype=torch.float64, requires_grad=True)
(g1,) = torch.autograd.grad(torch.logit(r).sum(), r, create_graph=True)
print(g1)
(g2,) = torch.autograd.grad(g1.sum(), r)
print(g2, (2 * r.detach() - 1) / (r.detach() * (1 - r.detach())) ** 2)
