# Double precision activations, printed in full: GELU and the normal CDF (torch.special.ndtr)
# with their gradients, and the Bessel function I1's gradient where a NaN slipped in.
import torch
import torch.nn.functional as F

x = torch.linspace(-2, 2, 9, dtype=torch.float64, requires_grad=True)
y = F.gelu(x)
print(y.tolist())
y.sum().backward()
print(x.grad.tolist())

p = torch.tensor([0.0, 0.5, -1.25, 3.0], dtype=torch.float64, requires_grad=True)
cdf = torch.special.ndtr(p)
print(cdf.tolist())
cdf.sum().backward()
print(p.grad.tolist())
print(torch.autograd.gradcheck(torch.special.ndtr, (p,)))

# a NaN input: the value stays NaN, the gradient does not
b = torch.tensor([float("nan"), 0.0, 1.5], dtype=torch.float64, requires_grad=True)
i1 = torch.special.i1(b)
print(i1)
i1.sum().backward()
print(b.grad)
