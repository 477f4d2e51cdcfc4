import torch


def loss_fn(p):
    return (p[0] - 1) ** 2 + 10 * (p[1] - p[0] ** 2) ** 2


p = torch.tensor([0.5, 0.5], requires_grad=True)
v = torch.tensor([1.0, 0.0])
loss = loss_fn(p)
(grad,) = torch.autograd.grad(loss, p, create_graph=True)
print("grad:", grad)
(hv,) = torch.autograd.grad(grad, p, grad_outputs=v, retain_graph=True)
print("Hv:", hv)
(hv2,) = torch.autograd.grad(grad @ v, p)
print("Hv via dot:", hv2)
_, hv3 = torch.autograd.functional.hvp(loss_fn, p.detach(), v)
print("functional.hvp:", hv3)
print(grad.grad_fn is not None, hv.requires_grad)
