# Softmax regression on three features: probabilities with nn.Softmax, torch.max(outputs, 1)
# giving the predicted classes, and a confusion matrix filled by indexing.
import torch
import torch.nn as nn

torch.manual_seed(40)
n_classes = 3
X = torch.randn(30, 3)
y = X.argmax(dim=1)
model = nn.Linear(3, n_classes)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(50):
    outputs = model(X)
    loss = criterion(outputs, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if (epoch + 1) % 10 == 0:
        print("Epoch [{}/{}], Loss: {:.4f}".format(epoch + 1, 50, loss.item()))

with torch.no_grad():
    outputs = model(X)
    probs = nn.Softmax(dim=1)(outputs)
    _, predicted = torch.max(outputs, 1)
print(probs[:2])
confusion = torch.zeros(n_classes, n_classes, dtype=torch.int64)
for t, p in zip(y, predicted):
    confusion[t, p] += 1
print(confusion)
print("accuracy %.2f" % (confusion.diag().sum().item() / len(y)))
