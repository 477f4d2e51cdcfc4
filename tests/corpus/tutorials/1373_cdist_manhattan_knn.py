# k-nearest-neighbour style distances with torch.cdist: Manhattan (p=1), Chebyshev (p=inf)
# and Euclidean distances in double precision, and the gradients that flow back to both sets.
import torch

torch.manual_seed(3)
queries = torch.randn(6, 20, requires_grad=True)
keys = torch.randn(9, 20, requires_grad=True)

for p in (1.0, float("inf")):
    d = torch.cdist(queries, keys, p=p)
    nearest = d.min(dim=1)
    print(p, nearest.values.tolist(), nearest.indices.tolist())
    loss = (d * torch.linspace(0, 1, d.numel()).view_as(d)).sum()
    queries.grad = None
    keys.grad = None
    loss.backward()
    print(queries.grad[0].tolist())
    print(keys.grad[-1].tolist())

a = torch.randn(2, 4, 7, dtype=torch.float64, requires_grad=True)
b = torch.randn(2, 5, 7, dtype=torch.float64, requires_grad=True)
d2 = torch.cdist(a, b)
print(d2[0].tolist())
d2.pow(2).mean().backward()
print(a.grad[1].tolist())
print(b.grad[0].tolist())
