# A graph convolution with a sparse adjacency matrix (the way GCN tutorials write it):
# torch.sparse.mm / @ with a sparse COO matrix and dense features, gradients to the weights.
import torch

torch.manual_seed(0)
edges = torch.tensor([[0, 1, 1, 2, 2, 3, 3, 0, 1, 3],
                      [1, 0, 2, 1, 3, 2, 0, 3, 1, 3]])
n = 4
degree = torch.zeros(n, dtype=torch.float64).index_add_(0, edges[0], torch.ones(edges.shape[1], dtype=torch.float64))
weights = 1.0 / degree[edges[0]]
adj = torch.sparse_coo_tensor(edges, weights, (n, n), check_invariants=True)
print(adj)
print(adj.is_coalesced(), adj.coalesce().is_coalesced())
print(adj.to_dense())

features = torch.randn(n, 3, dtype=torch.float64)
W1 = torch.randn(3, 5, dtype=torch.float64, requires_grad=True)
W2 = torch.randn(5, 2, dtype=torch.float64, requires_grad=True)

h = torch.relu(torch.sparse.mm(adj, features @ W1))
out = adj @ (h @ W2)
print(out)
print(h.grad_fn.next_functions[0][0].name(), out.grad_fn.name())
loss = out.pow(2).sum()
loss.backward()
print(W1.grad)
print(W2.grad)

# row sums of the adjacency (sparse sum), dense to sparse and back
print(torch.sparse.sum(adj), torch.sparse.sum(adj, dim=1))
mask = torch.tensor([[0.0, 1.5, 0.0], [0.0, 0.0, -2.0]], dtype=torch.float64)
sp = mask.to_sparse()
print(sp)
print(sp.indices(), sp.values(), sp._nnz())
x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=torch.float64, requires_grad=True)
y = torch.mm(sp, x)
y.backward(torch.ones_like(y))
print(y, x.grad, sep="\n")
