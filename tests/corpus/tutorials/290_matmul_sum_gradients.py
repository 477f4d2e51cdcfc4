# The gradient a sum or a mean hands back is ones expanded to the shape: the matrix product's
# backward multiplies by it as PyTorch does (a contiguous copy first), to the last bit.
import torch

torch.manual_seed(5)
for m, k, n in [(4, 9, 5), (1, 30, 7), (16, 40, 3), (3, 100, 50), (2, 3, 1)]:
    w = torch.randn(m, k, requires_grad=True)
    x = torch.randn(k, n, requires_grad=True)
    (w @ x).sum().backward()
    print(w.grad.sum().item(), w.grad[0, :4].tolist(), x.grad[:2, 0].tolist())
    w.grad = None
    x.grad = None
    (w @ x).mean().backward()
    print(w.grad[-1, -3:].tolist(), x.grad[-1, -2:].tolist())
    print((torch.ones(1, 1).expand(n, m) @ w)[0, :4].tolist())

# a weight divided by a scalar computed from it (as spectral normalisation does)
u = torch.randn(4)
v = torch.randn(9)
w = torch.randn(4, 9, requires_grad=True)
inputs = [torch.randn(9, 5), torch.randn(9, 5)]
sigma = torch.dot(u, torch.mv(w, v))
loss = sum(((w / sigma) @ x).sum() * (i + 1) for i, x in enumerate(inputs))
loss.backward()
print(loss.item())
print(w.grad)
