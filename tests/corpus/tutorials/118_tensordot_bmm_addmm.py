import torch

a = torch.arange(24.0).reshape(2, 3, 4)
b = torch.arange(12.0).reshape(4, 3)
print(torch.tensordot(a, b, dims=([1, 2], [1, 0])))
print(torch.tensordot(torch.ones(3, 4), torch.ones(4, 5), dims=1).shape)
print(torch.tensordot(torch.arange(4.0), torch.arange(4.0), dims=1))

x = torch.tensor([[[1.0, 2.0], [3.0, 4.0]], [[0.0, 1.0], [1.0, 0.0]]], requires_grad=True)
y = torch.tensor([[[1.0], [0.5]], [[2.0], [-1.0]]])
z = torch.bmm(x, y)
print(z)
z.sum().backward()
print(x.grad)

M = torch.tensor([[1.0, 1.0], [1.0, 1.0]])
m1 = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
m2 = torch.tensor([[0.5, 0.0], [0.0, 0.5]])
print(torch.addmm(M, m1, m2))
print(torch.addmm(M, m1, m2, beta=0.5, alpha=2.0))
torch.addmm(M, m1, m2, alpha=3).sum().backward()
print(m1.grad)

inp = torch.zeros(2, 2, 1)
print(torch.baddbmm(inp, x.detach(), y, beta=1.0, alpha=0.5))
print(torch.matmul(x, y).shape, (x @ y).squeeze(-1))
