import torch

a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
c = torch.tensor([1.0, 1.0], requires_grad=True)
out = a * a

try:
    torch.autograd.grad(out, [a, b], retain_graph=True)
except RuntimeError as e:
    print(e)

ga, gb = torch.autograd.grad(out, [a, b], allow_unused=True, retain_graph=True)
print(ga, gb)

ga, gb, gc = torch.autograd.grad(out, (a, b, c), materialize_grads=True, retain_graph=True)
print(ga, gb, gc)

grads = torch.autograd.grad(out, [a, c], allow_unused=True)
print([g if g is None else g.item() for g in grads])
