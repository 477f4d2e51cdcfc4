# A tiny CNN on 6x6 "images": one training step by hand, then a few with SGD.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TinyCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, kernel_size=3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(4 * 3 * 3, 3)

    def forward(self, x):
        x = self.pool(F.relu(self.conv(x)))
        x = torch.flatten(x, 1)
        return self.fc(x)


model = TinyCNN()
print(model)
print(model.conv.weight.shape, model.conv.bias.shape, model.fc.weight.shape)
print(model.conv.weight[0])

images = torch.randn(2, 1, 6, 6)
labels = torch.tensor([0, 2])

logits = model(images)
print(logits.shape, logits.grad_fn.name())
loss = F.cross_entropy(logits, labels)
print(f"initial loss: {loss.item():.4f}")

loss.backward()
print(model.conv.weight.grad.shape)
print(f"conv grad norm: {model.conv.weight.grad.norm():.4f}")
print(f"fc bias grad: {model.fc.bias.grad}")

opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(5):
    opt.zero_grad()
    loss = F.cross_entropy(model(images), labels)
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.4f}")

with torch.no_grad():
    print(model(images).argmax(dim=1))
