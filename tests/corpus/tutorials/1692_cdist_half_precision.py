# Pairwise distances of half-precision embeddings.
import torch

torch.manual_seed(0)
emb = torch.randn(4, 3)
for x1, x2 in ((emb.half(), emb.half()), (emb.bfloat16(), emb.bfloat16()),
               (emb.half(), emb), (emb, emb.half())):
    try:
        print(torch.cdist(x1, x2))
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)

big = torch.randn(30, 3).half()
d = torch.cdist(big, big)  # the matrix-product form past 25 rows runs in half
print(d.dtype, d.shape)
print(torch.cdist(emb.half().float(), emb.float(), p=1))
