# Watching activations blow up layer by layer: std() of a whole tensor is computed around the
# tensor's own float32 mean, so once the values are huge the printed std can be inf or nan
# while the per-row std (computed along a dim) stays finite.
import torch

torch.manual_seed(11)
x = torch.randn(32, 64)
w = torch.randn(64, 64) * 6.0
for layer in range(40):
    x = x @ w
    s = x.std()
    if layer % 4 == 3 or not torch.isfinite(s):
        print(f"layer {layer:2d}: mean={x.mean().item():.4e} std={s.item():.4e} var={x.var().item():.4e}")
    if torch.isnan(s):
        print("std is nan at layer", layer)
        break
print(x.std(dim=1)[:4])
print(torch.var_mean(x[:2], dim=1))

big = torch.full((4, 256), 3e36)
big[0, 0] = -3e36
print(big.mean(), big.std(), big.var(unbiased=False), big.std(dim=1))
small = torch.randn(5, 7) * 1e-20
print(small.std(), small.var(correction=0), small.t().std(), small.std(dim=(0, 1), keepdim=True))
d = torch.linspace(-1e200, 1e200, 9, dtype=torch.float64)
print(d.std(), d.var())
print(torch.tensor([2.5]).std(), torch.tensor([1.0, 4.0]).var(correction=3))
