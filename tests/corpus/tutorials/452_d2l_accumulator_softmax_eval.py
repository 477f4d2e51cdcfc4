# d2l-style evaluation of a softmax regression: an Accumulator class collects correct counts
# and losses batch by batch, fed by a data_iter generator.
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


def data_iter(batch_size, features, labels):
    num_examples = len(features)
    for i in range(0, num_examples, batch_size):
        yield features[i : i + batch_size], labels[i : i + batch_size]


def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


def train_epoch(net, features, labels, loss, updater):
    metric = Accumulator(3)
    for X, y in data_iter(10, features, labels):
        y_hat = net(X)
        l = loss(y_hat, y)
        updater.zero_grad()
        l.mean().backward()
        updater.step()
        metric.add(l.sum().item(), accuracy(y_hat, y), y.numel())
    return metric[0] / metric[2], metric[1] / metric[2]


torch.manual_seed(3)
features = torch.randn(60, 4)
labels = (features[:, 0] + features[:, 1] > 0).long() + (features[:, 2] > 1).long()
net = nn.Sequential(nn.Linear(4, 3))
loss = nn.CrossEntropyLoss(reduction="none")
trainer = torch.optim.SGD(net.parameters(), lr=0.3)
for epoch in range(3):
    train_loss, train_acc = train_epoch(net, features, labels, loss, trainer)
    print(f"epoch {epoch + 1}: loss {train_loss:.4f}, train acc {train_acc:.3f}")
m = Accumulator(2)
m.add(2, torch.tensor(3.5))
print(m.data, m[0] + m[1])
m.reset()
print(m[1])
