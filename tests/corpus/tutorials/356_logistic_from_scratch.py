# "What is torch.nn really?", from scratch: weights and bias tensors, a hand-written
# log_softmax and negative log-likelihood, accuracy by argmax, minibatches by slicing.
import math

import torch

torch.manual_seed(0)
n, d, c = 64, 8, 3
centers = torch.randn(c, d) * 2
y_train = torch.randint(0, c, (n,))
x_train = centers[y_train] + torch.randn(n, d)

weights = torch.randn(d, c) / math.sqrt(d)
weights.requires_grad_()
bias = torch.zeros(c, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


loss_func = nll


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


bs = 16
xb = x_train[0:bs]
yb = y_train[0:bs]
preds = model(xb)
print(preds[0], preds.shape)
print(loss_func(preds, yb))
print(accuracy(preds, yb))

lr = 0.5
epochs = 3
for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)

        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()

print(loss_func(model(xb), yb), accuracy(model(xb), yb))
