# gradgradcheck draws its random output gradients from the global generator (as
# torch.testing.make_tensor does), so the numbers a program draws after it depend on it.
import torch

torch.manual_seed(0)
x = torch.rand(2, 3, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradgradcheck(lambda t: (t.sin() * t).sum(dim=1), (x,)))
print(torch.rand(3))


def two(t):
    return t.exp(), t.tanh() * 2


print(torch.autograd.gradgradcheck(two, (x,)))
print(torch.randn(2, dtype=torch.double))

# given grad_outputs draw nothing
g = torch.ones(2, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradgradcheck(lambda t: (t**3).sum(dim=1), (x,), (g,)))
print(torch.rand(2))
