# Per-feature statistics in double precision, printed to the last digit (tolist / item):
# variance and standard deviation along a dim, and var_mean / std_mean (whose mean is the
# running mean of the variance pass, not sum / n), with the gradient of a std_mean loss.
import torch

torch.manual_seed(7)
feats = torch.randn(6, 5, dtype=torch.float64) * 2.5 + 0.75

print(feats.var(dim=0).tolist())
print(feats.std(dim=1, correction=0).tolist())
print(torch.var(feats, dim=1, keepdim=True).squeeze(1).tolist())
v, m = torch.var_mean(feats, dim=0)
print(v.tolist())
print(m.tolist())
print(feats.mean(dim=0).tolist())
s, mu = torch.std_mean(feats)
print(s.item(), mu.item(), feats.std().item(), feats.mean().item())

cube = torch.randn(3, 4, 5, dtype=torch.float64)
print(torch.var(cube, dim=(0, 2)).tolist())
print(torch.std(cube.transpose(0, 2), dim=1).flatten().tolist()[:6])

w = feats.clone().requires_grad_()
s, mu = torch.std_mean(w, dim=1)
(s * mu).sum().backward()
print(w.grad[0].tolist())
x32 = feats.float()
print(torch.var_mean(x32, dim=1))
