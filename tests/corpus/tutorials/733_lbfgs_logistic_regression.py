# Logistic regression in float64 by L-BFGS with a line search (as scikit-learn's default
# solver does): binary cross-entropy on logits plus a small L2 penalty.
import torch
import torch.nn.functional as F

torch.manual_seed(5)
n = 80
X = torch.randn(n, 2, dtype=torch.float64)
labels = ((X[:, 0] - 0.5 * X[:, 1] + 0.2 * torch.randn(n, dtype=torch.float64)) > 0).double()

w = torch.zeros(2, dtype=torch.float64, requires_grad=True)
b = torch.zeros(1, dtype=torch.float64, requires_grad=True)
opt = torch.optim.LBFGS([w, b], line_search_fn="strong_wolfe", tolerance_grad=1e-9)


def closure():
    opt.zero_grad()
    logits = X @ w + b
    loss = F.binary_cross_entropy_with_logits(logits, labels) + 1e-3 * (w * w).sum()
    loss.backward()
    return loss


for i in range(3):
    print(i, f"{opt.step(closure).item():.10f}")
print("w", [f"{v:.6f}" for v in w.tolist()], "b", f"{b.item():.6f}")
with torch.no_grad():
    acc = ((X @ w + b > 0).double() == labels).double().mean()
print("accuracy", acc.item())
print(opt.state[w]["n_iter"], opt.state[w]["func_evals"])
