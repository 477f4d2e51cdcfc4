import torch

x = torch.linspace(-3, 3, 7, requires_grad=True)
y = torch.sigmoid(x)
y.backward(torch.ones_like(y))

print(x)
print(y)
print(x.grad)
# sigma'(x) = sigma(x) * (1 - sigma(x))
print(y.detach() * (1 - y.detach()))
