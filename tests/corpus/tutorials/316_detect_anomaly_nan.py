import torch

print(torch.is_anomaly_enabled())
x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)

# without anomaly detection: a silent nan in the gradient
y = torch.sqrt(x) * 0.0
y.sum().backward()
print(x.grad)

x.grad = None
torch.autograd.set_detect_anomaly(True)
print(torch.is_anomaly_enabled())
z = x.sqrt().sum()
z.backward()
print(x.grad)
torch.autograd.set_detect_anomaly(False)
print(torch.is_anomaly_enabled())

# the classic: a masked sqrt whose backward still multiplies nan by zero
w = torch.tensor([-1.0, 4.0], requires_grad=True)
safe = torch.where(w > 0, torch.sqrt(w), torch.zeros_like(w))
safe.sum().backward()
print(w.grad)

w.grad = None
with torch.autograd.detect_anomaly():
    safe = torch.where(w > 0, torch.sqrt(w), torch.zeros_like(w))
    try:
        safe.sum().backward()
    except RuntimeError as e:
        print(e)
print(w.grad)
