# float16 tensors: PyTorch accumulates their norms and variances in float and rounds the
# result once, so a norm whose squares would overflow half precision is still finite.
import torch

v = torch.ones(3, dtype=torch.float16, requires_grad=True)
w = v
steps = 0
while w.detach().norm() < 1000:  # the norm of [256, 256, 256] is 443.5, not inf
    w = w * 2
    steps += 1
print(steps, w)
w.backward(torch.tensor([0.5, 1.0, 0.002], dtype=torch.float16))
print(v.grad)

big = torch.tensor([[300.0, 400.0], [1e4, 1e4], [-6e4, 5e3]], dtype=torch.float16)
print(big.norm(), big.norm(dim=1), big.norm(dim=0, keepdim=True))
print(big.norm(p=1, dim=1), big.norm(p=3, dim=0), big.norm(p=float("inf")))
print(torch.linalg.vector_norm(big, dim=1), torch.dist(big[0], big[1]))
print(big.std(), big.var(dim=1), big.std(dim=0, unbiased=False))
tiny = torch.tensor([1e-4, 2e-4, 3e-4], dtype=torch.float16)
print(tiny.norm(), tiny.std())
