# Norms of negative order (a soft minimum of |x|: the -inf norm is the smallest entry),
# their gradients, and what a zero entry does to them.
import torch

torch.manual_seed(5)
x = torch.randn(6, 11) + 0.05
for p in [-1, -2, -0.5]:
    n = torch.linalg.vector_norm(x, p)
    print(p, n.item(), torch.linalg.vector_norm(x, p, dim=0)[:4], x.t().norm(p=p, dim=1)[:4])
print(torch.linalg.vector_norm(x, float("-inf")).item(), x.abs().min().item())

v = torch.tensor([0.5, -2.0, 3.0, 0.25], requires_grad=True)
soft_min = torch.linalg.vector_norm(v, -4)
soft_min.backward()
print(soft_min, v.grad)

w = torch.tensor([[1.5, 0.0, -2.0], [3.0, -1.0, 0.5]], dtype=torch.float64, requires_grad=True)
out = torch.norm(w, p=-1.5, dim=1)
out.sum().backward()
print(out, w.grad)
