import torch

torch.manual_seed(0)
with torch.no_grad():
    x = torch.randn(1)
    y = x + 1

y.requires_grad = True
z = y + 1
print(z.grad_fn.name())

with torch.inference_mode():
    x = torch.randn(1)
    y = x + 1

try:
    y.requires_grad = True
except RuntimeError as e:
    print(e)

try:
    y.add_(1)
except RuntimeError as e:
    print(e)

with torch.inference_mode():
    y.add_(1)
print(y, y.is_inference())
