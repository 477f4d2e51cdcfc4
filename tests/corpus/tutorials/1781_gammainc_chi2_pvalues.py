# Chi-square p-values and the Gamma CDF with the regularized incomplete gamma functions
import torch

torch.set_printoptions(precision=8)

# p-value of a chi-square statistic with k degrees of freedom: Q(k/2, stat/2)
stats = torch.tensor([0.5, 3.2, 7.8, 11.07, 18.3])
dof = torch.tensor([1.0, 3.0, 5.0, 5.0, 10.0])
pvals = torch.special.gammaincc(dof / 2, stats / 2)
print("p-values:", pvals)
print("cdf:", torch.special.gammainc(dof / 2, stats / 2))
print("sum is one:", torch.allclose(pvals + torch.igamma(dof / 2, stats / 2), torch.ones(5)))

# Gamma(shape, rate) CDF in float64, and its density as the gradient in x
shape = torch.tensor([0.5, 1.0, 2.5, 4.0], dtype=torch.float64)
rate = 2.0
x = torch.tensor([0.1, 0.75, 1.3, 0.02], dtype=torch.float64, requires_grad=True)
cdf = torch.special.gammainc(shape, rate * x)
print(cdf)
cdf.sum().backward()
print("density:", x.grad)
d = torch.distributions.Gamma(shape, torch.full_like(shape, rate))
print(torch.allclose(x.grad, d.log_prob(x.detach()).exp()))

# methods and edge values
a = torch.tensor([0.0, 1.0, 2.0, -1.0, float("inf")])
z = torch.tensor([1.0, 0.0, float("inf"), 1.0, 2.0])
print(a.igamma(z), a.igammac(z))
b = torch.tensor([2.0, 3.0])
b.igamma_(torch.tensor([1.0, 4.0]))
print(b)
print(torch.igammac(torch.tensor([3.0], dtype=torch.float64), torch.tensor([2.0])).dtype)

# half precision: computed in float, rounded once
print(torch.special.gammaincc(dof.half() / 2, stats.half() / 2))
print(torch.special.gammainc(dof.bfloat16() / 2, stats.bfloat16() / 2))

# the derivative in the shape parameter is not available in PyTorch
s = torch.tensor([2.0], requires_grad=True)
try:
    torch.special.gammainc(s, torch.tensor([1.0])).backward()
except NotImplementedError as e:
    print("NotImplementedError:", e)
try:
    torch.igamma(torch.tensor([1, 2]), torch.tensor([3, 4]))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.special.gammainc(torch.tensor([1.0]), 2.0)
except TypeError as e:
    print("TypeError:", e)
