# Complex products rounded as PyTorch's CPU kernel rounds them, checked to the bit: the
# product's float bits summed as integers, for lengths that exercise the vector loop and the
# rest, in both complex dtypes.
import torch

torch.manual_seed(7)
torch.set_printoptions(precision=9)
for n in (1, 2, 3, 6, 8, 13, 40):
    a = torch.randn(n, dtype=torch.cfloat)
    b = torch.randn(n, dtype=torch.cfloat)
    p = a * b
    print(n, p.view(torch.float32).view(torch.int32).sum().item(), p[-1])
    a2, b2 = a.to(torch.cdouble), b.to(torch.cdouble)
    p2 = a2 * b2
    print(n, p2.view(torch.float64).view(torch.int64).sum().item() % 1000003, p2[0])
z = torch.randn(5, dtype=torch.cfloat, requires_grad=True)
(z * z.conj()).real.sum().backward()
print(z.grad)
