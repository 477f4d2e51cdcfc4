# Attention-style scores normalised down the columns (softmax over a dimension that is not the
# last) in float64: the gradients' last digits, the exact-zero directions included.
import torch

torch.manual_seed(0)
torch.set_printoptions(precision=17)

x = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
v = torch.randn(3, 2, dtype=torch.float64)
upstream = torch.ones(4, 2, dtype=torch.float64) @ v.T  # the same in every row
probs = torch.softmax(x, dim=0)
print(probs.sum(dim=0))
probs.backward(upstream)
print(x.grad)

q = torch.randn(2, 5, 11, dtype=torch.float64, requires_grad=True)
k = torch.randn(2, 5, 11, dtype=torch.float64)
scores = q * k / 11**0.5
weights = scores.softmax(dim=1)
out = (weights * k).sum()
out.backward()
print(weights[0, :, :3])
print(q.grad[1, :, -3:])
print(q.grad.abs().sum().item())

h = torch.randn(6, 2, 9, dtype=torch.float64, requires_grad=True)
probs = torch.nn.functional.softmax(h, dim=-3)
(probs**2).sum().backward()
print(h.grad[:, 1, 8])
print(torch.autograd.grad(torch.softmax(h, 0), h, torch.ones_like(h))[0].abs().max())

# a column holding +inf: PyTorch's kernel subtracts the maximum as it is (inf - inf is nan)
masked = torch.tensor([[0.0, float("inf")], [1.0, 0.0], [2.0, float("inf")]], dtype=torch.float64)
print(torch.softmax(masked, dim=0))
print(torch.log_softmax(masked, dim=0))
