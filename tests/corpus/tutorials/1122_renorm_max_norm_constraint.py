# A max-norm constraint on a weight matrix with torch.renorm: rows whose L2 norm is above the
# limit are scaled back to it, inside the graph, so the gradient flows through the rescaling.
# Also the L1 and infinity norms, renorm along columns, and a double-precision check.
import torch

torch.manual_seed(7)
weight = (torch.randn(6, 4) * 1.5).requires_grad_()
inputs = torch.randn(5, 4)
target = torch.randn(5, 6)

w_limited = torch.renorm(weight, p=2, dim=0, maxnorm=1.0)
print("row norms after renorm:", w_limited.norm(dim=1))
out = (inputs[:, None, :] * w_limited[None, :, :]).sum(-1)
loss = ((out - target) ** 2).mean()
loss.backward()
print("loss:", loss.item())
print("weight.grad:")
print(weight.grad.tolist())

x = (torch.randn(3, 7) * 2).requires_grad_()
y = x.renorm(1, 0, 2.5)
y.backward(torch.linspace(-1, 1, 21).reshape(3, 7))
print(x.grad.tolist())

x.grad = None
z = x.renorm(float("inf"), 1, 0.9)
(z * z).sum().backward()
print(x.grad.tolist())

cols = (torch.randn(4, 5) * 3).requires_grad_()
cols.renorm(3, 1, 1.5).sum().backward()
print(cols.grad.tolist())

d = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
torch.renorm(d, 2, 1, 0.75).pow(2).sum().backward()
print(d.grad.tolist())
