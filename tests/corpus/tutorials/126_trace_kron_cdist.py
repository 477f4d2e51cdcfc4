import torch

A = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
t = torch.trace(A)
print(t)
t.backward()
print(A.grad)

print(torch.kron(torch.eye(2), torch.tensor([[1.0, 2.0], [3.0, 4.0]])))

x1 = torch.tensor([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]], requires_grad=True)
x2 = torch.tensor([[1.0, 0.0], [0.0, 3.0]])
d = torch.cdist(x1, x2)
print(d)
d.sum().backward()
print(x1.grad)
print(torch.cdist(x1.detach(), x2, p=1))
print(torch.diag(A.detach()), torch.diag(torch.tensor([1.0, 2.0])))
print(torch.tril(torch.ones(3, 3)), torch.triu(torch.ones(3, 3), diagonal=1))
