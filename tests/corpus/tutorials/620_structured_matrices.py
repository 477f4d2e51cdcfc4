# Building structured matrices and grids from small tensors, and the gradients that flow
# back through them (block diagonals, embedded diagonals, rotations, Vandermonde, pairs).
import torch

a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
b = torch.tensor([5.0, 6.0, 7.0], requires_grad=True)
c = torch.tensor(8.0, requires_grad=True)

B = torch.block_diag(a, b, c)
print(B)
w = torch.arange(B.numel(), dtype=torch.float32).view(B.shape)
(B * w).sum().backward()
print(a.grad, b.grad, c.grad, sep="\n")

d = torch.diag_embed(b, offset=1)
print(d)
print(torch.diag_embed(a, dim1=0, dim2=2).shape)
b.grad = None
(d @ d).trace().backward()
print(b.grad)

r = torch.rot90(a, 1, [0, 1])
print(r, torch.rot90(a, -1), torch.rot90(a, 2), sep="\n")
a.grad = None
(r * torch.tensor([[1.0, 10.0], [100.0, 1000.0]])).sum().backward()
print(a.grad)

x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
V = torch.vander(x, N=4)
print(V)
print(torch.vander(x, increasing=True))

pairs = torch.combinations(x, r=2)
print(pairs)
print(torch.combinations(torch.arange(3), with_replacement=True))
grid = torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([10, 20, 30]))
print(grid)

rows, cols = torch.tril_indices(3, 3)
print(rows, cols)
print(torch.triu_indices(3, 4, offset=1))

edges = torch.tensor([0.0, 1.0, 2.5, 4.0])
vals = torch.tensor([-1.0, 0.0, 1.0, 3.0, 4.0, 9.0])
print(torch.bucketize(vals, edges), torch.bucketize(vals, edges, right=True))
print(torch.searchsorted(edges, vals), torch.searchsorted(edges, vals, side="right"))
M = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(M.H, M.mH, M.mT, sep="\n")
