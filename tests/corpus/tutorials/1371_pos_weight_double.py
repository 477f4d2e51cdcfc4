# pos_weight in float64, soft targets that require grad, and a double backward.
import torch
import torch.nn.functional as F

torch.manual_seed(1)
x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
t = torch.rand(3, 4, dtype=torch.float64, requires_grad=True)
pw = torch.tensor([0.5, 1.0, 2.0, 4.0], dtype=torch.float64)
loss = F.binary_cross_entropy_with_logits(x, t, pos_weight=pw)
gx, gt = torch.autograd.grad(loss, (x, t), create_graph=True)
print(loss)
print(gx)
print(gt)
print(gx.grad_fn.name())
hx, = torch.autograd.grad(gx.sum(), x)
print(hx)

# float32 logits with a pos_weight built from numpy-like float64 counts
z = torch.randn(5, 2, requires_grad=True)
y = torch.tensor([[1.0, 0.0], [0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0]])
pw64 = torch.tensor([3.0, 1.5], dtype=torch.float64)
l2 = F.binary_cross_entropy_with_logits(z, y, pos_weight=pw64)
l2.backward()
print(l2.dtype, l2.item())
print(z.grad.dtype, z.grad.tolist())
