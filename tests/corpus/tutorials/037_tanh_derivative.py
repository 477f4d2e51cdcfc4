import torch

x = torch.tensor([-1.0, 0.0, 0.5, 1.0], requires_grad=True)
y = torch.tanh(x)
y.backward(torch.ones(4))

print(y)
print(x.grad)
print(1 - y.detach() ** 2)
print(torch.allclose(x.grad, 1 - y.detach() ** 2))
