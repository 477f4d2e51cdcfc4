# torch.sparse.softmax / log_softmax of float32 sparse tensors (attention over the stored
# entries of each row: the unstored ones count as -inf), printed to their last digits.
import torch

torch.manual_seed(3)
torch.set_printoptions(precision=8)

rows = torch.tensor([0, 0, 0, 1, 2, 2, 3, 3, 3, 3])
cols = torch.tensor([0, 2, 5, 4, 1, 3, 0, 1, 4, 5])
scores = torch.randn(10) * 4
attn = torch.sparse_coo_tensor(torch.stack([rows, cols]), scores, (4, 6))

p = torch.sparse.softmax(attn, dim=1)
print(p.values())
print(p.to_dense().sum(dim=1))
logp = torch.sparse.log_softmax(attn, dim=1)
print(logp.values())
print(torch.sparse.softmax(attn, dim=0).values())
print(torch.sparse.log_softmax(attn, dim=0).values())

# a bigger random pattern (duplicate positions are summed first)
idx = torch.randint(0, 40, (2, 600))
big = torch.sparse_coo_tensor(idx, torch.randn(600) * 6, (40, 40))
sm = torch.sparse.softmax(big, 1)
print(sm.values()[:8])
print(torch.sparse.log_softmax(big, 0).values()[-8:])
print(sm.values().sum())
