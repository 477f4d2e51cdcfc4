import torch

A = torch.arange(6.0).reshape(2, 3)
B = torch.arange(12.0).reshape(3, 4)
v = torch.tensor([1.0, 0.0, -1.0])
print(A @ B, (A @ B).shape)
print(torch.mm(A, B).shape, A.matmul(B).shape)
print(A @ v, torch.mv(A, v))
print(v @ v, torch.dot(v, v), torch.inner(v, v))
print(torch.outer(v, torch.tensor([1.0, 2.0])))
print(v @ B)
batch = torch.ones(5, 2, 3)
print((batch @ B).shape, torch.bmm(batch, torch.ones(5, 3, 1)).shape)
print(torch.matmul(torch.ones(10, 1, 2, 3), torch.ones(4, 3, 2)).shape)
print(A * A, A.T @ A)
print(torch.eye(3) @ B == B)
print(torch.einsum("ij,jk->ik", A, B).shape, torch.einsum("i,i->", v, v))
i = torch.tensor([[1, 2], [3, 4]])
print(i @ i, (i @ i).dtype)
print(torch.tensor([[1.0, 2.0], [3.0, 4.0]]).det(), torch.linalg.inv(torch.tensor([[2.0, 0.0], [0.0, 4.0]])))
print(torch.trace(B[:, :3]), torch.diag(torch.tensor([1, 2])), torch.diag(B))
print(torch.triu(torch.ones(3, 3)), torch.tril(torch.ones(3, 3), diagonal=-1))
try:
    torch.mm(A, v)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.bmm(A, B)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.dot(v, torch.ones(2))
except RuntimeError as e:
    print("RuntimeError:", e)
