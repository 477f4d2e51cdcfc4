import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
print(torch.is_grad_enabled())
torch.set_grad_enabled(False)
y = x * 2
print(torch.is_grad_enabled(), y.requires_grad)
torch.set_grad_enabled(True)
y = x * 2
print(torch.is_grad_enabled(), y.requires_grad)

is_train = False
with torch.set_grad_enabled(is_train):
    z = x * 2
print(z.requires_grad)

with torch.no_grad():
    with torch.enable_grad():
        inner = x * 3
    outer = x * 3
print(inner.requires_grad, outer.requires_grad)


@torch.enable_grad()
def doubler(t):
    return t * 2


with torch.no_grad():
    d = doubler(x)
print(d.requires_grad, d.grad_fn.name())
