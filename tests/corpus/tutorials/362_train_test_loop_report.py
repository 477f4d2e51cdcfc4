# "Optimizing Model Parameters": train_loop and test_loop over minibatches, with the
# tutorial's report lines (loss with :>7f, progress [current/size], accuracy and average loss).
import torch
from torch import nn

torch.manual_seed(0)
X_all = torch.randn(96, 4)
y_all = (X_all[:, 0] * 2 - X_all[:, 3] > 0).long() + (X_all[:, 1] > 0.5).long()
X_train, y_train = X_all[:64], y_all[:64]
X_test, y_test = X_all[64:], y_all[64:]


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 3)
        )

    def forward(self, x):
        return self.linear_relu_stack(x)


model = NeuralNetwork()
learning_rate = 1e-1
batch_size = 16
epochs = 3


def train_loop(X, y, model, loss_fn, optimizer):
    size = len(X)
    model.train()
    for batch in range(size // batch_size):
        Xb = X[batch * batch_size : (batch + 1) * batch_size]
        yb = y[batch * batch_size : (batch + 1) * batch_size]
        pred = model(Xb)
        loss = loss_fn(pred, yb)

        loss.backward()
        optimizer.step()
        optimizer.zero_grad()

        if batch % 2 == 0:
            loss, current = loss.item(), batch * batch_size + len(Xb)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test_loop(X, y, model, loss_fn):
    model.eval()
    size = len(X)
    num_batches = size // batch_size
    test_loss, correct = 0, 0
    with torch.no_grad():
        for batch in range(num_batches):
            Xb = X[batch * batch_size : (batch + 1) * batch_size]
            yb = y[batch * batch_size : (batch + 1) * batch_size]
            pred = model(Xb)
            test_loss += loss_fn(pred, yb).item()
            correct += (pred.argmax(1) == yb).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100 * correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")


loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)
for t in range(epochs):
    print(f"Epoch {t + 1}\n-------------------------------")
    train_loop(X_train, y_train, model, loss_fn, optimizer)
    test_loop(X_test, y_test, model, loss_fn)
print("Done!")
