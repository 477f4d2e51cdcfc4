# d2l's linear regression from scratch: a data iterator over a random permutation, linreg,
# squared_loss, and an sgd function that updates in place under no_grad.
import torch

torch.manual_seed(0)
true_w = torch.tensor([2, -3.4])
true_b = 4.2
num_examples = 100
features = torch.normal(0, 1, (num_examples, len(true_w)))
labels = torch.matmul(features, true_w) + true_b
labels += torch.normal(0, 0.01, labels.shape)
labels = labels.reshape((-1, 1))


def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = torch.randperm(num_examples)
    for i in range(0, num_examples, batch_size):
        batch_indices = indices[i : min(i + batch_size, num_examples)]
        yield features[batch_indices], labels[batch_indices]


def linreg(X, w, b):
    return torch.matmul(X, w) + b


def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.03
num_epochs = 3
batch_size = 10
net = linreg
loss = squared_loss
for epoch in range(num_epochs):
    for X, y in data_iter(batch_size, features, labels):
        l = loss(net(X, w, b), y)
        l.sum().backward()
        sgd([w, b], lr, batch_size)
    with torch.no_grad():
        train_l = loss(net(features, w, b), labels)
        print(f"epoch {epoch + 1}, loss {float(train_l.mean()):f}")
print(f"error in estimating w: {true_w - w.reshape(true_w.shape)}")
print(f"error in estimating b: {true_b - b}")
