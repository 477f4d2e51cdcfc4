# Sparse CSR matrices: made from a dense matrix, from a COO tensor or from their three arrays;
# printed with their row offsets; multiplied with a dense matrix (whose gradient flows).
import torch

torch.manual_seed(0)
adj = torch.tensor([[0.0, 1.0, 0.0, 0.5], [1.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 1.5]])
csr = adj.to_sparse_csr()
print(csr)
print(csr.crow_indices(), csr.col_indices(), csr.values())
print(csr.layout, csr.is_sparse, csr.is_sparse_csr, csr.shape, csr._nnz())
print(csr.to_dense())
print(adj.to_sparse().to_sparse_csr().crow_indices())
print(csr.to_sparse())

feats = torch.randint(-3, 4, (4, 3)).float() / 2  # (exact products in float32)
print(csr @ feats)
print(torch.mm(csr, feats).sum(), csr.matmul(feats).shape)

made = torch.sparse_csr_tensor(
    torch.tensor([0, 2, 3, 3]), torch.tensor([0, 2, 1]), torch.tensor([1.0, -1.0, 3.0]), size=(3, 3)
)
print(made)
print(made.to_dense())
dbl = torch.sparse_csr_tensor([0, 1, 2], [1, 0], [0.25, 4.0], dtype=torch.float64)
print(dbl)

w = torch.linspace(-1.0, 1.0, 9, dtype=torch.float64).reshape(3, 3).requires_grad_()
out = dbl @ w[:2]
print(out, out.grad_fn.name())
out.pow(2).sum().backward()
print(w.grad)

big = torch.randn(40, 30)
big[big.abs() < 1.0] = 0
big_csr = big.to_sparse_csr()
m = torch.randn(30, 5)
print((big_csr @ m - big @ m).abs().max() < 1e-5)
big64 = big.double().to_sparse_csr()
torch.set_printoptions(precision=12)
print((big64 @ m.double())[:2])
