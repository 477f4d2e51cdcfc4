import torch

v = torch.tensor([3.0, -4.0, 12.0], requires_grad=True)
print(torch.linalg.norm(v))
print(torch.linalg.vector_norm(v, ord=1), torch.linalg.vector_norm(v, ord=float('inf')))
print(torch.linalg.vector_norm(v, ord=3))
torch.linalg.vector_norm(v).backward()
print(v.grad)

M = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
print(torch.linalg.matrix_norm(M))
print(torch.linalg.matrix_norm(M, ord=1), torch.linalg.matrix_norm(M, ord='nuc'))
print(torch.linalg.norm(M, dim=1))
torch.linalg.matrix_norm(M).backward()
print(M.grad)
print(M.norm(dim=0, keepdim=True))
print(torch.norm(M.detach(), p='fro'))
