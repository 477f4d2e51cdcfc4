import torch
import torch.nn.functional as F
from torch.autograd.functional import jacobian


def softmax(z):
    e = torch.exp(z - z.max(dim=-1, keepdim=True).values)
    return e / e.sum(dim=-1, keepdim=True)


z = torch.tensor([1.0, 2.0, 0.5])
print(softmax(z))
print(F.softmax(z, dim=0))
print(torch.allclose(softmax(z), torch.softmax(z, dim=-1)))

J = jacobian(softmax, z)
print(J)
s = softmax(z)
print(torch.diag(s) - torch.outer(s, s))
print(torch.allclose(J.sum(dim=0), torch.zeros(3), atol=1e-6))
