import torch

x = torch.ones(1, 2, 3, requires_grad=True)
with torch.inference_mode():
    y = x * x
print(y.requires_grad, y.is_inference(), x.is_inference())
print(torch.is_inference_mode_enabled())

with torch.inference_mode():
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    with torch.inference_mode(mode=False):
        print(torch.is_inference_mode_enabled())


@torch.inference_mode()
def predict(v):
    return v * 3


out = predict(x)
print(out.requires_grad, out.is_inference())
print(out)

try:
    (out * x).sum().backward()
except RuntimeError as e:
    print(e)

fixed = out.clone()
print(fixed.is_inference())
(fixed * x).sum().backward()
print(x.grad)
