# d2l's concise linear regression: synthetic data, nn.Sequential(nn.Linear(2, 1)), weights
# initialised in place through .data, MSELoss, SGD, the estimation errors at the end.
import torch
from torch import nn


def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


torch.manual_seed(42)
true_w = torch.tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 200)
print("features:", features[0], "\nlabel:", labels[0])

net = nn.Sequential(nn.Linear(2, 1))
net[0].weight.data.normal_(0, 0.01)
net[0].bias.data.fill_(0)
loss = nn.MSELoss()
trainer = torch.optim.SGD(net.parameters(), lr=0.03)

batch_size = 10
num_epochs = 3
for epoch in range(num_epochs):
    for i in range(0, len(features), batch_size):
        X, y = features[i : i + batch_size], labels[i : i + batch_size]
        l = loss(net(X), y)
        trainer.zero_grad()
        l.backward()
        trainer.step()
    l = loss(net(features), labels)
    print(f"epoch {epoch + 1}, loss {l:f}")

w = net[0].weight.data
print("error in estimating w:", true_w - w.reshape(true_w.shape))
b = net[0].bias.data
print("error in estimating b:", true_b - b)
