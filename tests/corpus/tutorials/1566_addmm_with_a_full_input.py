# torch.addmm(C, A, B) with C a full matrix, a column, a row or a number: MKL adds C inside
# the product (beta = 1), as it does F.linear's bias; printed to every digit.
import torch

torch.manual_seed(4)
torch.set_printoptions(precision=8)
A = torch.randn(9, 13)
B = torch.randn(13, 2)
for C in (torch.ones(9, 2), torch.randn(9, 2), torch.randn(9, 1), torch.randn(2), torch.tensor(0.5)):
    print(torch.addmm(C, A, B)[1], (C + A @ B).reshape(-1, 2)[1 if C.ndim == 2 and C.shape[0] > 1 else 0])
X = torch.randn(6, 40, requires_grad=True)
W = torch.randn(40, 16, requires_grad=True)
C = torch.randn(6, 16, requires_grad=True)
out = torch.addmm(C, X, W)
print(out.sum().item(), out[2, :4].tolist())
out.pow(2).sum().backward()
print(C.grad[0, :4].tolist(), W.grad[0, :4].tolist())
