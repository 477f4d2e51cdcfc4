# d2l's Accumulator class and accuracy function, used to evaluate a model batch by batch.
import torch
from torch import nn


class Accumulator:
    """For accumulating sums over n variables."""

    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def reset(self):
        self.data = [0.0] * len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]


def accuracy(y_hat, y):
    """Compute the number of correct predictions."""
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


def evaluate_accuracy(net, batches):
    if isinstance(net, torch.nn.Module):
        net.eval()
    metric = Accumulator(2)
    with torch.no_grad():
        for X, y in batches:
            metric.add(accuracy(net(X), y), y.numel())
    return metric[0] / metric[1]


torch.manual_seed(8)
X = torch.randn(50, 4)
y = torch.randint(0, 3, (50,))
batches = [(X[i : i + 20], y[i : i + 20]) for i in range(0, 50, 20)]
net = nn.Sequential(nn.Linear(4, 3))
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(accuracy(y_hat, torch.tensor([0, 2])) / 2)
print(evaluate_accuracy(net, batches))
m = Accumulator(3)
m.add(1, 2.5, torch.tensor(3))
m.add(1, 0.5, 4)
print(m.data, m[1])
m.reset()
print(m.data)
print(net.training)
