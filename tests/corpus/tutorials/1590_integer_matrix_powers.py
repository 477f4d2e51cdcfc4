# Counting walks in a small directed graph: the (i, j) entry of A^k is the number of
# walks of length k from node i to node j. The adjacency matrix stays an integer tensor.
import torch

adj = torch.tensor([[1, 1, 1, 0],
                    [0, 0, 1, 1],
                    [1, 0, 0, 1],
                    [1, 1, 0, 0]])

for k in range(4):
    walks = torch.linalg.matrix_power(adj, k)
    print(f"walks of length {k}:")
    print(walks)

print(adj.matrix_power(5).sum().item(), "walks of length 5 in all")
print(torch.matrix_power(adj.to(torch.int32), 2).dtype)

# small integer types wrap around as their matmul does
print(torch.linalg.matrix_power(adj.to(torch.uint8) * 3, 4))

# reachability with booleans: the identity works, a product does not
reach = torch.linalg.matrix_power(adj.bool(), 0)
print(reach)
try:
    torch.linalg.matrix_power(adj.bool(), 2)
except NotImplementedError as e:
    print("bool:", e)

# a negative power needs an inverse, which needs floating point
try:
    torch.linalg.matrix_power(adj, -1)
except RuntimeError as e:
    print("negative:", e)
inv_sq = torch.linalg.matrix_power(adj.double(), -2)
print(inv_sq)
print(torch.allclose(inv_sq @ adj.double() @ adj.double(), torch.eye(4, dtype=torch.float64)))
