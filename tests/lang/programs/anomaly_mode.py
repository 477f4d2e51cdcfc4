# Anomaly mode: set_detect_anomaly sets it at once (a `with` restores it), detect_anomaly for
# its block; a backward pass then refuses a gradient holding nan, naming the node.
import torch

torch.autograd.set_detect_anomaly(True)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
with torch.autograd.set_detect_anomaly(False):
    print(torch.is_anomaly_enabled())
print(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(True, check_nan=False)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
x = torch.tensor([-1.0, 0.0], requires_grad=True)
(x.sqrt() * 0).sum().backward()
print(x.grad)
torch.autograd.set_detect_anomaly(True)
x.grad = None
b = torch.log(x * 2)
try:
    (b * 0).sum().backward()
except RuntimeError as e:
    print(e)
z = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([0.0, 1.0], requires_grad=True)
try:
    (z / w * 0).sum().backward()
except RuntimeError as e:
    print(e)
print(x.grad, z.grad, w.grad)
torch.autograd.set_detect_anomaly(False)
with torch.autograd.detect_anomaly(check_nan=True):
    print(torch.is_anomaly_enabled())
    try:
        (z * w / w).sum().backward()
    except RuntimeError as e:
        print(e)
print(torch.is_anomaly_enabled(), z.grad)
