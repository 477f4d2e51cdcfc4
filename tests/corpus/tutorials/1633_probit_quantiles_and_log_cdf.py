# Probit models: the normal quantile function (torch.special.ndtri) maps probabilities to
# z-scores, and log_ndtr gives a numerically safe log of the normal CDF. Print them to full
# float32 precision and check the gradients with autograd.
import torch

torch.set_printoptions(precision=8)
p = torch.tensor([1e-7, 0.001, 0.025, 0.1, 0.3, 0.5, 0.7, 0.9, 0.975, 0.999, 0.9999999])
z = torch.special.ndtri(p)
print(z)
print(z.tolist())

p = torch.linspace(0.02, 0.98, 7, requires_grad=True)
z = torch.special.ndtri(p)
z.sum().backward()
print(p.grad)  # sqrt(2 pi) exp(z^2 / 2)

x = torch.tensor([-1.0, -0.5, 0.0, 0.3, 1.0, 2.5, 4.0, 7.5], requires_grad=True)
lc = torch.special.log_ndtr(x)
print(lc)
print([f"{v:.9g}" for v in lc.tolist()])
lc.sum().backward()
print(x.grad)

# the same in float64
p64 = torch.tensor([1e-300, 1e-20, 0.2, 0.5, 0.8, 1 - 1e-12], dtype=torch.float64)
print(torch.special.ndtri(p64).tolist())
print(torch.special.log_ndtr(torch.tensor([-1.0, 0.0, 1.5, 6.0], dtype=torch.float64)).tolist())
