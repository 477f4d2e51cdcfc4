# Mixed-precision habits on CPU: a classifier's losses and their gradients computed in float16
# (and bfloat16 where PyTorch runs them), printed next to each other.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
logits32 = torch.randn(24, 5) * 2
labels = torch.randint(0, 5, (24,))

for dtype in (torch.float16, torch.bfloat16):
    logits = logits32.to(dtype).requires_grad_()
    lp = F.log_softmax(logits, dim=1)
    loss = F.nll_loss(lp, labels) if dtype == torch.float16 else -(lp[torch.arange(24), labels]).mean()
    loss.backward()
    print(dtype, "loss", loss)
    print("grad rows", logits.grad[:3])

h = logits32.half().requires_grad_()
ce = F.cross_entropy(h, labels)
ce.backward()
print("cross_entropy", ce, h.grad[-2:])

h.grad = None
ce_w = F.cross_entropy(h, labels, weight=torch.tensor([1.0, 2.0, 0.5, 1.0, 3.0]).half())
ce_w.backward()
print("weighted", ce_w, h.grad[0])

z = torch.linspace(-4, 4, 50).half().requires_grad_()
t = (torch.rand(50) > 0.5).half()
bce = F.binary_cross_entropy_with_logits(z, t)
bce.backward()
print("bce", bce, z.grad[::6])

z.grad = None
probs = torch.softmax(z.reshape(5, 10), dim=1)
(probs * torch.arange(10).half()).sum().backward()
print("softmax", probs[0], z.grad[:10])

a = torch.randn(12).half().requires_grad_()
b = torch.randn(12).half()
mse = F.mse_loss(a, b)
mse.backward()
print("mse", mse, a.grad)
