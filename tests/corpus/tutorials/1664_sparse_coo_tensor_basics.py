# Building a sparse COO tensor by hand and reading it back
import torch

i = torch.tensor([[0, 1, 1, 3],
                  [2, 0, 2, 1]])
v = torch.tensor([3.0, 4.0, 5.0, -1.5])
s = torch.sparse_coo_tensor(i, v, (4, 3))
print(s)
print(s.to_dense())
print(s.is_sparse, s.layout, s.shape, s.is_coalesced())

# repeated coordinates are summed by coalesce()
dup = torch.sparse_coo_tensor([[2, 0, 2, 2]], [1.0, 2.0, 3.0, 4.0], size=(5,))
print(dup)
print(dup.coalesce())
print(dup.to_dense())

# size inferred from the indices; rows of values are a dense dimension
rows = torch.sparse_coo_tensor([[1, 3]], [[1, 2], [3, 4]])
print(rows)
print(rows.to_dense())

d = torch.sparse_coo_tensor([[0, 2]], [0.25, 0.5], (3,), dtype=torch.float64)
print(d)
print(d.to_dense())

try:
    torch.sparse_coo_tensor([[0, 1, 2]], [1.0, 2.0], (3,))
except RuntimeError as e:
    print(e)
try:
    torch.sparse_coo_tensor([[0, 1]], [1.0, 2.0], (3, 2))
except RuntimeError as e:
    print(e)
