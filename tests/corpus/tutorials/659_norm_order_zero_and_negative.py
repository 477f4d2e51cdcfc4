# Norms of order 0 (the number of nonzeros) and negative orders: values, grad_fn, and the
# gradient PyTorch gives (none at all for order 0).
import torch
a = torch.tensor([1.0, 0.0, 2.0], requires_grad=True)
n = torch.linalg.vector_norm(a, ord=0)
print(n, n.grad_fn.name())
n.backward()
print(a.grad)
b = torch.tensor([[1.0, 0.0], [3.0, 4.0]], requires_grad=True)
m = torch.linalg.vector_norm(b, ord=0, dim=1) + b.sum(1)
m.sum().backward()
print(m, b.grad)
print(torch.func.grad(lambda t: torch.linalg.vector_norm(t, 0) + t.sum())(torch.ones(3)))
print(torch.func.jacrev(lambda t: torch.linalg.vector_norm(t, 0))(torch.ones(3)))
print(torch.vmap(lambda t: torch.linalg.vector_norm(t, 0))(torch.eye(3)))
print(torch.linalg.vector_norm(torch.tensor([0.0, 5.0]), 0), torch.norm(a, p=0))
with torch.no_grad():
    print(torch.linalg.vector_norm(a, 0))
c = torch.tensor([[1.0, -2.0], [0.5, 4.0]], requires_grad=True)
for p in (0, -1, -2, float("-inf")):
    r = torch.norm(c, p=p, dim=1)
    r.sum().backward()
    print(p, r, c.grad)
    c.grad = None
print(c.norm(p=0), c.norm(0, dim=0, keepdim=True))
