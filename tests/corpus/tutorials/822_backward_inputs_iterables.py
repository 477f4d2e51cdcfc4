# Restricting backward() to some tensors: `inputs=` takes whatever holds them -- a
# module's parameters() generator, a tuple, a dict -- and autograd.grad answers a dict
# input with a dict of gradients.
import torch
import torch.nn as nn

torch.manual_seed(3)
encoder = nn.Linear(3, 2)
head = nn.Linear(2, 1)
batch = torch.randn(5, 3)
target = torch.randn(5, 1)

loss = ((head(encoder(batch)) - target) ** 2).mean()
loss.backward(inputs=head.parameters(), retain_graph=True)
print("head weight grad:", head.weight.grad)
print("encoder untouched:", encoder.weight.grad is None)

loss.backward(inputs=tuple(encoder.parameters()), retain_graph=True)
print("encoder bias grad:", encoder.bias.grad)

only = {"w": encoder.weight, "b": head.bias}
grads = torch.autograd.grad(loss, only, retain_graph=True)
print(type(grads).__name__, sorted(grads))
for name, g in grads.items():
    print(name, g)

torch.autograd.backward(loss, inputs={"bias": head.bias}, retain_graph=True)
print("head bias grad, twice:", head.bias.grad)

gen = (p for p in head.parameters())
print([tuple(g.shape) for g in torch.autograd.grad(loss, gen, retain_graph=True)])

for bad in ([], {}, [encoder.weight, 2.0], "wb"):
    try:
        loss.backward(inputs=bad, retain_graph=True)
    except RuntimeError as e:
        print("backward:", e)
    try:
        torch.autograd.grad(loss, bad, retain_graph=True)
    except RuntimeError as e:
        print("grad:", e)
