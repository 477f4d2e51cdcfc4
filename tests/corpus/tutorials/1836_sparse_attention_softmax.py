# Attention scores kept only on a graph's edges: torch.sparse.softmax normalizes each row over
# its stored entries (the missing ones count as -inf), as graph-attention code does.
import torch

edges = torch.tensor([[0, 0, 1, 1, 1, 2, 3, 3], [1, 3, 0, 2, 3, 1, 0, 2]])
scores = torch.tensor([0.2, -1.0, 1.5, 0.3, 0.0, 2.0, -0.5, 0.8], dtype=torch.float64)
att = torch.sparse_coo_tensor(edges, scores, (4, 4), check_invariants=True)

alpha = torch.sparse.softmax(att, dim=1)
print(alpha)
print(alpha.to_dense())
print(torch.sparse.sum(alpha, dim=1).to_dense())
print(torch.sparse.log_softmax(att, dim=0).values())

h = torch.arange(8.0, dtype=torch.float64).reshape(4, 2).requires_grad_()
out = torch.sparse.mm(alpha, h)
print(out)
out.sum().backward()
print(h.grad)
