# Refactoring step one: F.cross_entropy replaces log_softmax + nll, same numbers.
import torch
import torch.nn.functional as F

torch.manual_seed(5)
x = torch.randn(12, 6)
y = torch.randint(0, 4, (12,))
weights = (torch.randn(6, 4) / 6**0.5).requires_grad_()
bias = torch.zeros(4, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


loss_func = F.cross_entropy


def model(xb):
    return xb @ weights + bias


hand = nll(log_softmax(model(x)), y)
builtin = loss_func(model(x), y)
print(hand, builtin)
print(torch.allclose(hand, builtin))
builtin.backward()
print(weights.grad)
print(bias.grad)
