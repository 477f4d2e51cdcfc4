# A probit link in bfloat16: the normal quantile sqrt(2) * erfinv(2p - 1) of bfloat16
# probabilities, its gradient, and the same in float16. PyTorch's CPU kernel computes erfinv
# of a bfloat16 in float and rounds once, so the exact values are printed (as floats).
import torch

torch.manual_seed(0)
p = (torch.rand(12) * 0.98 + 0.01).to(torch.bfloat16).requires_grad_()
z = torch.erfinv(2 * p - 1) * 2**0.5
print("quantiles", z.float().tolist())
z.sum().backward()
print("dz/dp", p.grad.float().tolist())

edges = torch.tensor([-1.0, -0.5, 0.0, 0.5, 1.0, 1.5], dtype=torch.bfloat16)
print("edges", torch.special.erfinv(edges).float().tolist())
print("clone then in place", edges.clone().erfinv_().float().tolist())

h = torch.linspace(-0.99, 0.99, 9).half()
print("float16", torch.erfinv(h).float().tolist())

# the float32 gradient of the same quantiles against a central difference
q = torch.tensor([0.1, 0.5, 0.8], dtype=torch.float64, requires_grad=True)
torch.special.erfinv(2 * q - 1).sum().backward()
eps = 1e-6
fd = (torch.erfinv(2 * (q.detach() + eps) - 1) - torch.erfinv(2 * (q.detach() - eps) - 1)) / (2 * eps)
print("float64 gradient matches differences:", torch.allclose(q.grad, fd, rtol=1e-6))
