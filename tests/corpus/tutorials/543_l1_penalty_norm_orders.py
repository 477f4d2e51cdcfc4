# A lasso-style penalty on a hand-written linear model, and the other vector norms people log
# while training: the 1-norm of a weight, p-norms along a dim, norms of a transposed matrix.
import torch

torch.manual_seed(3)
features = torch.randn(32, 12)
true_w = torch.zeros(12)
true_w[:3] = torch.tensor([1.5, -2.0, 0.75])
targets = (features * true_w).sum(1) + 0.1 * torch.randn(32)

w = torch.zeros(12, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w, b], lr=0.05)

for step in range(6):
    opt.zero_grad()
    pred = (features * w).sum(1) + b
    mse = ((pred - targets) ** 2).mean()
    penalty = 0.01 * torch.norm(w, p=1)
    (mse + penalty).backward()
    opt.step()
    print(f"step {step}: mse {mse.item():.8f} l1 {penalty.item():.10f} |w|_3 {w.norm(3).item():.9f}")

m = torch.randn(7, 13)
print(m.norm(p=1).item(), m.t().norm(p=1).item(), torch.norm(m, p=1, dim=0, keepdim=True))
print(torch.linalg.vector_norm(m, 3, dim=0))
print(torch.linalg.vector_norm(m.t(), 1.5, dim=0))
print(m.norm(dim=0), m.t().norm(dim=1), m.t().norm())

m64 = m.double()
print(torch.linalg.vector_norm(m64, 0.5, dim=1).tolist())
print(m64.norm(p=4).item(), m64.t().norm().item(), m64.norm(dim=0).tolist()[:4])
