# An MNIST-shaped classifier on random "images": 28 x 28 inputs flattened to 784, one hidden
# layer of 64, 10 classes, batches of 32 with SGD and momentum, as a first MNIST tutorial
# writes it; the loss of every step and the logits of two images with all their digits.
import torch
import torch.nn as nn

torch.manual_seed(5)
images = torch.rand(96, 1, 28, 28)
targets = torch.randint(0, 10, (96,))

model = nn.Sequential(nn.Flatten(), nn.Linear(784, 64), nn.ReLU(), nn.Linear(64, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()

for step in range(6):
    i = (step % 3) * 32
    out = model(images[i : i + 32])
    loss = loss_fn(out, targets[i : i + 32])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())

print(model[1].weight.grad[0, :6])
print(model(images[:2]).tolist())
