# Log-likelihood of a 1-d Gaussian mixture in double precision, computed stably with
# torch.logsumexp over the components; then the per-point responsibilities.
import math

import torch

torch.manual_seed(2252)

K, N = 6, 40
means = torch.linspace(-5, 5, K, dtype=torch.float64)
log_std = torch.randn(K, dtype=torch.float64) * 0.3
logits = torch.randn(K, dtype=torch.float64)
x = torch.randn(N, dtype=torch.float64) * 4

log_pi = logits - torch.logsumexp(logits, dim=0)
z = (x[:, None] - means[None, :]) / log_std.exp()
log_pdf = -0.5 * z**2 - log_std - 0.5 * math.log(2 * math.pi)
joint = log_pi + log_pdf  # (N, K)

log_lik = torch.logsumexp(joint, dim=1)
print("per-point log-likelihood:", log_lik[:10].tolist())
print("total:", log_lik.sum().item())
resp = (joint - log_lik[:, None]).exp()
print("responsibilities of point 0:", resp[0].tolist())
print("component mass:", torch.logsumexp(joint, dim=0).tolist())
print("all at once:", torch.logsumexp(joint, dim=(0, 1)).item())
