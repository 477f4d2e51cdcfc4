# Parametrizations: a weight kept symmetric, a right_inverse, several parametrizations
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

    def right_inverse(self, A):
        return A.triu()


class Scale(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c

    def forward(self, X):
        return X * self.c

    def right_inverse(self, A):
        return A / self.c


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(3, 3))
        self.register_buffer("mask", torch.ones(3))

    def forward(self, x):
        return x @ self.weight * self.mask


torch.manual_seed(0)
layer = nn.Linear(3, 3)
P.register_parametrization(layer, "weight", Symmetric())
original = layer.parametrizations.weight.original
print(original)
print(layer.weight)
P.register_parametrization(layer, "weight", Scale(2.0))
print(layer)
print(layer.weight)
print(list(layer.state_dict().keys()))

# assigning the weight goes through right_inverse, into the same original tensor
layer.weight = torch.eye(3) * 4
print(original is layer.parametrizations.weight.original)
print(layer.parametrizations.weight.original)
print(layer.weight)

# training moves `original`; the weight stays symmetric
opt = torch.optim.SGD(layer.parameters(), lr=0.1)
x = torch.randn(5, 3)
for step in range(3):
    opt.zero_grad()
    loss = layer(x).pow(2).mean()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
W = layer.weight
print(torch.allclose(W, W.T))

# a program's module, and a buffer
net = Net()
P.register_parametrization(net, "weight", Symmetric())
P.register_parametrization(net, "mask", Scale(3.0))
print(net)
print([n for n, _ in net.named_parameters()])
print([n for n, _ in net.named_buffers()])
print(net.mask)
y = net(torch.ones(1, 3))
y.sum().backward()
print(net.parametrizations.weight.original.grad)

with P.cached():
    a = net.weight
    b = net.weight
    print(a is b)
print(net.weight is net.weight)

P.remove_parametrizations(net, "mask", leave_parametrized=False)
print(net.mask)
print(P.is_parametrized(net), P.is_parametrized(net, "mask"))
P.remove_parametrizations(net, "weight")
print(net)
print(P.is_parametrized(net))
print(type(net.weight).__name__, net.weight.requires_grad)
