# Tensor.sparse_mask as the sparse docs show it: keep a dense tensor's values only where a
# sparse pattern has entries (the pattern's own values are never read).
import torch

scores = torch.tensor([[0.5, -1.0, 2.0, 0.0], [3.0, 0.25, -0.5, 1.5], [1.0, 1.0, 1.0, 1.0]])
pattern = torch.sparse_coo_tensor(
    torch.tensor([[0, 1, 1, 2], [2, 0, 3, 1]]),
    torch.tensor([9.0, 9.0, 9.0, 9.0]),
    (3, 4),
    check_invariants=True,
)
kept = scores.sparse_mask(pattern)
print(kept)
print(kept.to_dense())
print(kept.is_coalesced(), kept.coalesce().indices().tolist(), kept.coalesce().values())

# a pattern with a repeated, unsorted entry keeps it as given
loose = torch.sparse_coo_tensor(
    torch.tensor([[2, 0, 2], [1, 0, 1]]), torch.ones(3), (3, 4), check_invariants=True
)
picked = scores.sparse_mask(loose)
print(picked.is_coalesced(), picked.to_dense())

counts = torch.arange(12).reshape(3, 4)
print(counts.sparse_mask(pattern.coalesce()))

# a hybrid pattern: whole rows kept
rows = torch.zeros(3, 4)
rows[1] = 1.0
print(scores.sparse_mask(rows.to_sparse(1)))

try:
    scores.sparse_mask(torch.ones(4).to_sparse())
except RuntimeError as e:
    print("RuntimeError:", e)
