# Exercise: count things with einsum on small integer and bool tensors (a vote table), and
# see which dtype each result comes back in.
import torch

votes = torch.tensor([[1, 0, 1, 1], [0, 0, 1, 0], [1, 1, 1, 0]], dtype=torch.int32)
mask = votes.bool()
weights = torch.tensor([3, 1, 2], dtype=torch.int32)
small = torch.tensor([[2, 7], [5, 1]], dtype=torch.uint8)

print(torch.einsum("vc->c", votes))          # per candidate
print(torch.einsum("vc->", mask))            # how many True
print(torch.einsum("ii->", small))           # trace of a uint8 matrix
print(torch.einsum("vc->cv", votes))         # no label dropped: stays int32
print(torch.einsum("vc,w->w", votes, weights))
print(torch.einsum("vc,v->c", votes, weights))   # a real contraction: int32 bmm
print(torch.einsum("vc,w->vw", mask, mask[:, 0]))

for eq, ops in [("vc,c->", (votes, weights[:1].expand(4).contiguous())),
                ("vc,c->v", (mask, mask[0]))]:
    try:
        print(torch.einsum(eq, *ops))
    except (RuntimeError, NotImplementedError) as err:
        print(type(err).__name__, err)

# the float version for the gradient
w = weights.float().requires_grad_()
score = torch.einsum("vc,v->", votes.float(), w)
score.backward()
print(score, w.grad)
