import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = a.sigmoid()
c = out.detach()
c.zero_()
print(out)
try:
    out.sum().backward()
except RuntimeError as e:
    print(e)

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = a.sigmoid()
c = out.data
c.zero_()
print(out)
out.sum().backward()
print(a.grad)
print(out._version, c._version)
