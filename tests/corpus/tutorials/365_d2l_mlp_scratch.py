# d2l's MLP from scratch: nn.Parameter weights scaled by 0.01, a hand-written relu with
# torch.max, CrossEntropyLoss(reduction='none') and the mean of it, torch.optim.SGD.
import torch
from torch import nn

torch.manual_seed(1)
num_inputs, num_outputs, num_hiddens = 12, 3, 16
W1 = nn.Parameter(torch.randn(num_inputs, num_hiddens, requires_grad=True) * 0.01)
b1 = nn.Parameter(torch.zeros(num_hiddens, requires_grad=True))
W2 = nn.Parameter(torch.randn(num_hiddens, num_outputs, requires_grad=True) * 0.01)
b2 = nn.Parameter(torch.zeros(num_outputs, requires_grad=True))
params = [W1, b1, W2, b2]


def relu(X):
    a = torch.zeros_like(X)
    return torch.max(X, a)


def net(X):
    X = X.reshape((-1, num_inputs))
    H = relu(X @ W1 + b1)
    return H @ W2 + b2


X = torch.randn(30, 3, 4)
y = (X.sum(dim=(1, 2)) > 0).long() + (X[:, 0, 0] > 1).long()
loss = nn.CrossEntropyLoss(reduction="none")
num_epochs, lr = 10, 0.5
updater = torch.optim.SGD(params, lr=lr)
for epoch in range(num_epochs):
    updater.zero_grad()
    l = loss(net(X), y)
    l.mean().backward()
    updater.step()
    if epoch % 3 == 0:
        print(f"epoch {epoch + 1}, loss {l.mean().item():.6f}, shape {tuple(l.shape)}")
print(relu(torch.tensor([-1.0, 0.0, 2.0])))
print(W1.shape, W1.requires_grad, type(W1).__name__)
