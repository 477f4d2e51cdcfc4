# Three classes from 4 measurements, the way an iris tutorial writes it on synthetic data:
# nn.Linear(4, 8) -> ReLU -> nn.Linear(8, 3), batches of 6, cross-entropy and SGD; the
# running loss every 3 epochs, then the logits and the class of one new sample.
import torch
import torch.nn as nn

torch.manual_seed(7)
centers = torch.tensor([[5.0, 3.4, 1.5, 0.2], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.5, 2.0]])
X = torch.cat([c + 0.4 * torch.randn(20, 4) for c in centers])
y = torch.arange(3).repeat_interleave(20)

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)

for epoch in range(15):
    perm = torch.randperm(60)
    total = 0.0
    for i in range(0, 60, 6):
        idx = perm[i : i + 6]
        optimizer.zero_grad()
        loss = criterion(model(X[idx]), y[idx])
        loss.backward()
        optimizer.step()
        total += loss.item()
    if epoch % 3 == 2:
        print(f"epoch {epoch + 1}: loss {total / 10}")

sample = torch.tensor([[6.1, 2.9, 4.7, 1.4]])
logits = model(sample)
print(logits)
print(torch.softmax(logits, dim=1), logits.argmax(dim=1))
print(model[0].weight.grad)
print(model[2].bias.grad)
