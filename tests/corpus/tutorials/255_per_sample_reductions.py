# Per-sample reductions written with dims computed from the shape: for a 1-D tensor the list
# of dims is empty, which PyTorch reads as "all of them".
import torch


def per_sample_sq_norm(t):
    return t.pow(2).sum(dim=tuple(range(1, t.ndim)))


def flat_mean(t):
    return t.mean(dim=list(range(1, t.dim())), keepdim=True)


batch = torch.tensor([[1.0, 2.0], [3.0, -1.0]], requires_grad=True)
vec = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
print(per_sample_sq_norm(batch), per_sample_sq_norm(vec))
print(flat_mean(batch), flat_mean(vec))
print(vec.std(dim=()), vec.var(dim=[]), vec.norm(dim=()), torch.linalg.vector_norm(vec, dim=()))
print(vec.amin([]), vec.nansum(()), vec.count_nonzero(()), torch.var_mean(vec, ())[0])
per_sample_sq_norm(vec).backward()
print(vec.grad)

limit = torch.tensor(1.5)  # a 0-d tensor bound beside a number
print(batch.clamp(min=limit, max=2.5), vec.clamp(-limit, 2.0))
e = torch.zeros(0, 3)
print(torch.logsumexp(e, 0), torch.logsumexp(e.double(), 0))
