import torch

x = torch.arange(10).reshape(5, 2)
print(x.split(2))
print(torch.split(x, [1, 4]))
print(x.chunk(2))
print(x.chunk(3, dim=0))
print(torch.chunk(x, 2, dim=1))
a, b = x.split(1, dim=1)
print(a.shape, b.shape)
print(x.unbind(0))
print(torch.unbind(x, dim=1))
first, *rest = x
print(first, len(rest))
print(torch.arange(7).tensor_split(3))
print(torch.arange(6).chunk(4))
print(len(torch.arange(5).split(2)), [t.tolist() for t in torch.arange(5).split(2)])
for piece in torch.arange(6.0).chunk(3):
    print(piece, piece.sum())
try:
    x.split([1, 2])
except RuntimeError as e:
    print("RuntimeError:", e)
print(x.narrow(0, 1, 2))
