import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad, torch.is_grad_enabled())


@torch.no_grad()
def doubler(t):
    return t * 2


z = doubler(x)
print(z.requires_grad)
with torch.set_grad_enabled(False):
    print((x * 2).requires_grad)
with torch.no_grad():
    with torch.enable_grad():
        w = x * 2
print(w.requires_grad, w.grad_fn is not None)
torch.set_grad_enabled(False)
print((x + 1).requires_grad)
torch.set_grad_enabled(True)
print((x + 1).requires_grad)
