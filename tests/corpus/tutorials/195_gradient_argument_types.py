# What backward() and autograd.grad() take as the upstream gradient, and the errors people
# meet when they pass a Python list or a number instead of a tensor.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x**2

y.backward(torch.tensor([1.0, 0.1, 0.01]), retain_graph=True)
print(x.grad)
x.grad = None
y.backward(gradient=[torch.ones(3)], retain_graph=True)
print(x.grad)

for bad in ([1.0, 1.0, 1.0], (0.5, 0.5, 0.5), [[1.0, 1.0, 1.0]], "ones", 1.0):
    try:
        y.backward(bad, retain_graph=True)
    except TypeError as e:
        print(type(bad).__name__, "->", e)

z = x.sum() * 2
for bad in ([1.0], 2.0, [None], []):
    try:
        print(torch.autograd.grad(z, x, grad_outputs=bad, retain_graph=True))
    except (TypeError, RuntimeError) as e:
        print(type(e).__name__, e)

a = (x * 3).sum()
b = (x * x).sum()
torch.autograd.backward([a, b], grad_tensors=[torch.tensor(1.0), None])
print(x.grad)
try:
    torch.autograd.backward([a, b], grad_tensors=[torch.tensor(1.0)])
except RuntimeError as e:
    print(e)
