# An MLP of MNIST's sizes (784 -> 128 -> 10) on a random batch, nn.Linear layers and SGD:
# the products of the forward pass and both gradients, printed to their last digits.
import torch
import torch.nn as nn

torch.manual_seed(1)

model = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
loss_fn = nn.CrossEntropyLoss()

images = torch.randn(100, 784)
labels = torch.randint(0, 10, (100,))

for epoch in range(6):
    opt.zero_grad()
    logits = model(images)
    loss = loss_fn(logits, labels)
    loss.backward()
    opt.step()
    print(f"epoch {epoch}: loss {loss.item():.8f}")

first = model[0]
print(first.weight.grad[:2, :5])
print(first.bias.grad[:5])
print(model[2].weight.grad[0, :6])
out = model(images[:32])
print(out[:2])
