import torch

x = torch.empty(5, 7, 3)
y = torch.empty(5, 7, 3)
print((x + y).size())

x = torch.empty((0,))
y = torch.empty(2, 2)
try:
    print((x + y).size())
except RuntimeError as e:
    print(e)

x = torch.empty(5, 3, 4, 1)
y = torch.empty(3, 1, 1)
print((x + y).size())

x = torch.empty(5, 2, 4, 1)
y = torch.empty(3, 1, 1)
try:
    (x + y).size()
except RuntimeError as e:
    print(e)

x = torch.empty(1)
y = torch.empty(3, 1, 7)
print((x + y).size())

a = torch.tensor([[1.0], [2.0], [3.0]])
b = torch.tensor([10.0, 20.0])
print(a + b)
print(a * b, (a * b).shape)
print(torch.ones(2, 3) + torch.tensor([1, 2, 3]))
print(torch.arange(3) - torch.arange(3).unsqueeze(1))
print(torch.broadcast_shapes((2, 1), (1, 3)), torch.broadcast_shapes((5, 1, 4), (3, 1)))
p, q = torch.broadcast_tensors(torch.tensor([1, 2]), torch.tensor([[0], [10]]))
print(p, q)
print(torch.tensor([1.0, 2.0]).expand(3, 2))
print(torch.tensor([[1.0], [2.0]]).expand(-1, 4))
print(torch.tensor([1, 2]).expand_as(torch.zeros(2, 2)))
print(torch.tensor([1, 2]).repeat(2, 2))
