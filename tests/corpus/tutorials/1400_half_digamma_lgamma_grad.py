# Log-gamma in half precision: a Poisson-style log-likelihood term and its gradient,
# as mixed-precision notebooks write it.
import torch

torch.manual_seed(0)
rate = (torch.rand(6) * 4 + 0.25).half().requires_grad_()
counts = torch.tensor([0.0, 1.0, 3.0, 2.0, 5.0, 1.0], dtype=torch.float16)

print("digamma:", torch.digamma(rate.detach()))
print("dtype:", torch.digamma(rate.detach()).dtype)

nll = (torch.lgamma(counts + rate) - torch.lgamma(rate)).sum()
nll.backward()
print("loss:", nll.item())
print("grad:", rate.grad)
print("psi at special points:", torch.special.digamma(torch.tensor([0.5, 1.0, 2.5, 10.0, -0.5], dtype=torch.float16)))
