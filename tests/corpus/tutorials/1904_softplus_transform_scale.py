# A positive scale through softplus instead of exp (gentler for large raw values)
import torch
from torch.distributions import Normal, TransformedDistribution
from torch.distributions.transforms import SoftplusTransform

to_positive = SoftplusTransform()
print(to_positive, to_positive.sign, to_positive == SoftplusTransform())
raw = torch.tensor([-30.0, -1.0, 0.0, 2.0, 25.0], dtype=torch.float64, requires_grad=True)
scale = to_positive(raw)
print(scale)
print("back:", to_positive.inv(scale))
ladj = to_positive.log_abs_det_jacobian(raw, scale)
print("log|dy/dx|:", ladj)
ladj.sum().backward()
print(raw.grad)

positive_normal = TransformedDistribution(Normal(torch.zeros(2), torch.ones(2)), [to_positive])
print(positive_normal.log_prob(torch.tensor([0.5, 3.0])), positive_normal.support)
try:
    positive_normal.log_prob(torch.tensor([-0.5, 3.0]))
except ValueError as e:
    print("negative:", str(e).split(" of the distribution")[0])
