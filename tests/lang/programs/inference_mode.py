# Inference tensors: made inside torch.inference_mode() (views of them too); changed in place
# outside it they are refused after the change (as PyTorch checks after its kernel ran)
import torch

with torch.inference_mode():
    y = torch.zeros(2)
try:
    y.add_(1)
except RuntimeError:
    print("err")
print(y)
try:
    y.mul_(3)
except RuntimeError:
    print("err")
print(y)
try:
    y[0] = 5
except RuntimeError:
    print("err")
print(y)
try:
    y.zero_()
except RuntimeError:
    print("err")
print(y)
try:
    y += 1
except RuntimeError:
    print("err")
print(y)
try:
    print(y._version)
except RuntimeError as e:
    print(e)
x = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    v = x[0]
    w = x * 2
    d = x.detach()
    n = torch.ones(3)
    print(v.is_inference(), w.is_inference(), d.is_inference(), n.is_inference())
print(
    y[0].is_inference(), y.detach().is_inference(), (y + 1).is_inference(), y.clone().is_inference()
)
print(torch.is_inference(n), torch.is_inference_mode_enabled())
print(x + n[:2])
try:
    print(x * n[:2])
except RuntimeError as e:
    print(e)
with torch.inference_mode(False):
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
with torch.no_grad():
    with torch.inference_mode(mode=False):
        print(torch.is_grad_enabled())


@torch.inference_mode
def f(t):
    return t * 2, torch.is_inference_mode_enabled()


print(f(x))
print(torch.is_inference_mode_enabled())
