import torch

A = torch.arange(6.0).reshape(2, 3).requires_grad_()
B = torch.arange(12.0).reshape(3, 4)
v = torch.tensor([1.0, -1.0, 2.0])

print(torch.einsum('ij,jk->ik', A, B))
print(torch.einsum('ij->ji', A))
print(torch.einsum('ij->', A))
print(torch.einsum('ij,j->i', A, v))
print(torch.einsum('i,i->', v, v))
print(torch.einsum('i,j->ij', v, v))
print(torch.einsum('ii->i', torch.eye(3) * 2))
print(torch.einsum('ii', torch.eye(3) * 2))

batch = torch.arange(24.0).reshape(2, 3, 4)
print(torch.einsum('bij,jk->bik', batch, torch.ones(4, 2)).shape)
print(torch.einsum('...ij->...ji', batch).shape)
print(torch.einsum('b i j, b i j -> b', batch, batch))

out = torch.einsum('ij,jk->ik', A, B).sum()
out.backward()
print(A.grad)
