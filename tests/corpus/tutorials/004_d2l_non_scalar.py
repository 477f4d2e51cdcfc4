import torch

x = torch.arange(4.0, requires_grad=True)
y = x * x
print(y)

# Invoking backward on a non-scalar requires a `gradient` argument
y.backward(gradient=torch.ones(len(y)))
print(x.grad)

# equivalent: sum first
x.grad.zero_()
y = x * x
y.sum().backward()
print(x.grad)
