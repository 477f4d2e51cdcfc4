# A two-layer classifier trained with Adam on three Gaussian blobs: loss and accuracy every
# 20 epochs, then the test accuracy under torch.no_grad().
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(17)
centers = torch.tensor([[0.0, 3.0], [3.0, -1.0], [-3.0, -1.0]])
labels = torch.arange(3).repeat_interleave(30)
points = centers[labels] + torch.randn(90, 2)
perm = torch.randperm(90)
points, labels = points[perm], labels[perm]
train_x, test_x = points[:60], points[60:]
train_y, test_y = labels[:60], labels[60:]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 16)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        return self.fc2(x)


net = Net()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(net.parameters(), lr=0.01)
for epoch in range(100):
    optimizer.zero_grad()
    outputs = net(train_x)
    loss = criterion(outputs, train_y)
    loss.backward()
    optimizer.step()
    if (epoch + 1) % 20 == 0:
        _, predicted = torch.max(outputs, 1)
        acc = (predicted == train_y).sum().item() / train_y.size(0)
        print(f"Epoch [{epoch + 1}/100], Loss: {loss.item():.4f}, Accuracy: {acc:.2%}")

correct = 0
total = 0
with torch.no_grad():
    outputs = net(test_x)
    _, predicted = torch.max(outputs.data, 1)
    total += test_y.size(0)
    correct += (predicted == test_y).sum().item()
print(f"Accuracy of the network on the {total} test points: {100 * correct // total} %")
