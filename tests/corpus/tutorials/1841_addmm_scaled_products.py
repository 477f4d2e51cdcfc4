# torch.addmm / baddbmm / addbmm with beta and alpha: beta * input + alpha * (a @ b),
# as written for momentum-like updates and attention scores, float32 and float64.
import torch

torch.manual_seed(3)

M = torch.randn(5, 7)
a = torch.randn(5, 9)
b = torch.randn(9, 7)
print(torch.addmm(M, a, b, beta=0.5, alpha=2.0))
print(torch.addmm(M, a, b, beta=0.0, alpha=0.1)[0])

# a bias row broadcast over a batch, scaled
bias = torch.randn(16, dtype=torch.float64)
x = torch.randn(6, 20, dtype=torch.float64)
w = torch.randn(20, 16, dtype=torch.float64)
y = torch.addmm(bias, x, w, beta=-1.5, alpha=0.25)
print(y[:2].tolist())
print(torch.addmm(bias, x, w)[5].tolist())

# attention-style scores: baddbmm with a scale as alpha
q = torch.randn(2, 4, 16)
k = torch.randn(2, 16, 12)
mask = torch.randn(2, 4, 12)
scores = torch.baddbmm(mask, q, k, beta=1.0, alpha=16 ** -0.5)
print(scores[1])
qd, kd = q.double(), k.double()
print(torch.baddbmm(mask.double(), qd, kd, beta=0.5, alpha=0.25)[0, 3].tolist())

# addbmm sums the batch of products into one matrix
batch1 = torch.randn(3, 4, 10, dtype=torch.float64)
batch2 = torch.randn(3, 10, 6, dtype=torch.float64)
acc = torch.zeros(4, 6, dtype=torch.float64)
print(torch.addbmm(acc, batch1, batch2, alpha=0.5).tolist()[1])
print(torch.addbmm(torch.ones(4, 6), batch1.float(), batch2.float(), beta=2.0, alpha=-1.0))

# gradients still flow through the scaled forms
a.requires_grad_()
torch.addmm(M, a, b, beta=0.5, alpha=2.0).pow(2).sum().backward()
print(a.grad[0])
