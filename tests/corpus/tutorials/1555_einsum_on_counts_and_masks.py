# einsum on integer counts and boolean masks: what comes back, in which dtype, and which
# equations PyTorch refuses for bool (a contraction needs a matrix product, which bool lacks).
import torch

hits = torch.tensor([[1, 0, 2], [3, 1, 0]], dtype=torch.int32)
weights = torch.tensor([2, 5, 1], dtype=torch.int32)
print(torch.einsum("ij->", hits), torch.einsum("ij->j", hits))  # sums: int64
print(torch.einsum("ij,j->i", hits, weights))  # a contraction: stays int32
print(torch.einsum("ij,j->j", hits, weights))  # i summed first (int64), then multiplied
print(torch.einsum("ij,ij->", hits, hits), torch.einsum("i,j->", weights, weights))
print(torch.einsum("ij->ji", hits).dtype, torch.einsum("ii->i", hits[:, :2]))

mask = torch.tensor([[True, False, True], [True, True, False]])
flags = torch.tensor([True, True, False])
print(torch.einsum("ij->", mask), torch.einsum("ij->i", mask))  # counts of True
print(torch.einsum("ij,j->ij", mask, flags))  # elementwise: still bool
print(torch.einsum("i,j->ij", flags, flags))
for eq, ops in [
    ("ij,j->i", (mask, flags)),
    ("ij,kj->ik", (mask, mask)),
    ("ij,jk->k", (mask, mask.T)),
]:
    try:
        print(torch.einsum(eq, *ops))
    except (RuntimeError, NotImplementedError) as e:
        print(eq, "->", type(e).__name__, e)

pixels = torch.full((2, 3), 200, dtype=torch.uint8)
print(torch.einsum("ij,ij->i", pixels, pixels))  # multiplied and summed in uint8: wraps
print(torch.einsum("ij->i", pixels))  # a sum: int64, no wrap

for f in [
    lambda: torch.tensordot(flags, flags, dims=1),
    lambda: torch.tensordot(mask, mask.T, dims=1),
    lambda: torch.trapezoid(flags),
    lambda: torch.cumulative_trapezoid(flags),
    lambda: torch.trapezoid(torch.tensor([1.0, 2.0, 4.0]), flags),
]:
    try:
        print(f())
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)
print(torch.tensordot(hits, weights, dims=1), torch.trapezoid(weights))
