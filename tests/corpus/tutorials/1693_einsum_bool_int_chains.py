# einsum chains over adjacency (bool) and count (int8) matrices.
import torch

adj = torch.tensor([[True, False], [True, True]])
counts = torch.tensor([[100, 100], [100, 100]], dtype=torch.int8)
small = torch.tensor([[1, 2], [3, 4]], dtype=torch.int8)

print(torch.einsum('ij,ij,ij->ij', adj, adj, adj))
print(torch.einsum('ij,ij->ij', counts, adj))          # mul promotes bool to int8
print(torch.einsum('ij,ij,jk->ik', adj, small, small))  # masked, then bmm in int8
print(torch.einsum('ij,jk,kl->il', counts, counts, counts))
print(torch.einsum('ij,jk,kl,lm->im', small, small, small, small))
print(torch.einsum('ij,ij,ij->', small, small, small))

for spec, ops in (('ij,jk,kl->il', (adj, adj, adj)),
                  ('ij,jk,kl->il', (adj, counts, counts)),
                  ('ij,jk,kl->il', (counts, adj, adj)),
                  ('i,i,i->', (adj[0], adj[0], adj[0]))):
    try:
        print(torch.einsum(spec, *ops))
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)
