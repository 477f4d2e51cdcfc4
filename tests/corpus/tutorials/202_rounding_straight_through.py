# Quantisation and rounding in training code. torch.round has a zero gradient, so the
# usual trick is the straight-through estimator: round in the forward pass, pass the
# gradient through unchanged in the backward pass.
import torch

w = torch.tensor([0.26, -0.74, 1.49, -1.51, 0.05], requires_grad=True)
scale = 0.5

# Plain rounding: the gradient is zero everywhere.
q = torch.round(w / scale) * scale
q.pow(2).sum().backward()
print("quantised:", q)
print("grad through round:", w.grad)

# Straight-through estimator: the forward value is the rounded one, the gradient is w's.
w.grad = None
q_ste = w + (torch.round(w / scale) * scale - w).detach()
q_ste.pow(2).sum().backward()
print("STE value:", q_ste)
print("grad through STE:", w.grad)

# Rounding to decimals, and the other rounding functions on the same values.
v = torch.tensor([2.345, -2.345, 0.5, 1.5, -0.5])
print(torch.round(v, decimals=2), torch.round(v))
print(v.floor(), v.ceil(), v.trunc(), v.frac())

# Periodic features: phase = t % period is differentiable in the period.
t = torch.tensor([0.5, 3.2, 7.9, 10.0])
period = torch.tensor(3.0, requires_grad=True)
phase = t % period
print("phase:", phase)
phase.sum().backward()
print("d phase / d period:", period.grad)     # -floor(t / period), summed

# Bucketing with floor division (no gradient in PyTorch) and fmod for signed remainders.
ids = torch.tensor([-7, -1, 0, 5, 12])
print(ids // 4, ids % 4, torch.fmod(ids, 4), torch.div(ids, 4, rounding_mode="trunc"))

# Replace the nan / inf a division produced before they spread.
num = torch.tensor([1.0, 0.0, -1.0, 2.0], requires_grad=True)
ratio = num / torch.tensor([0.0, 0.0, 0.0, 4.0])
clean = torch.nan_to_num(ratio, nan=0.0, posinf=1e3, neginf=-1e3)
print(clean)
clean.sum().backward()
# nan_to_num passes 0 back where it replaced a value, but the division's own backward
# still computes 0 / 0 there: the gradient is nan anyway. Guard the denominator instead.
print("grad:", num.grad)
num.grad = None
den = torch.tensor([0.0, 0.0, 0.0, 4.0])
safe = torch.where(den == 0, torch.zeros_like(num), num / torch.where(den == 0, 1.0, den))
safe.sum().backward()
print("guarded:", safe, num.grad)
