# lerp / addcmul / addcdiv / hypot in float32: the exact values PyTorch's fused kernels give
# (an exponential moving average and an Adam-style update checked element by element).
import torch

torch.manual_seed(3)
x = torch.randn(1000)
y = torch.randn(1000)
w = torch.rand(1000)
d = torch.rand(1000) + 0.5

results = {
    "lerp 0.25": torch.lerp(x, y, 0.25),
    "lerp 0.75": x.lerp(y, 0.75),
    "lerp tensor": torch.lerp(x, y, w),
    "addcmul": torch.addcmul(x, y, d, value=0.1),
    "addcdiv": x.addcdiv(y, d, value=-0.01),
    "hypot": torch.hypot(x, y),
    "lerp_": x.clone().lerp_(y, 0.9),
    "addcmul_": x.clone().addcmul_(y, y, value=0.001),
    "addcdiv_": x.clone().addcdiv_(y, d, value=3.0),
}
for name, t in results.items():
    print(f"{name:12s} {t.double().sum().item():.10f} {t[:4].tolist()}")

ema = torch.zeros(1000)
for k in range(20):
    ema.lerp_(x * k, 0.05)
print(ema[:5].tolist())

# with gradients: PyTorch's grad_fn names
a = torch.randn(4, requires_grad=True)
b = torch.randn(4, requires_grad=True)
for t in (torch.lerp(a, b, 0.3), torch.lerp(a, b, torch.full((4,), 0.6)),
          torch.addcmul(a, a, b), torch.addcdiv(a, b, a.exp()), torch.hypot(a, b)):
    print(t.grad_fn.name(), t.sum().item())
torch.hypot(a, b).sum().backward()
print(a.grad, b.grad)
