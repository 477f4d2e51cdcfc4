# Gradient accumulation: the loss divided by the number of accumulation steps, an optimizer
# step every 4 micro-batches; its gradients equal those of the full batch.
import torch
from torch import nn

torch.manual_seed(14)
model = nn.Linear(4, 1)
X = torch.randn(16, 4)
y = torch.randn(16, 1)
criterion = nn.MSELoss()

criterion(model(X), y).backward()
full_grad = model.weight.grad.clone()
model.zero_grad()

accumulation_steps = 4
for i in range(accumulation_steps):
    xb, yb = X[i * 4 : (i + 1) * 4], y[i * 4 : (i + 1) * 4]
    loss = criterion(model(xb), yb) / accumulation_steps
    loss.backward()
print(torch.allclose(model.weight.grad, full_grad, atol=1e-6))
print(model.weight.grad)

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
optimizer.zero_grad()
for epoch in range(3):
    for i in range(8):
        xb, yb = X[i * 2 : (i + 1) * 2], y[i * 2 : (i + 1) * 2]
        loss = criterion(model(xb), yb) / accumulation_steps
        loss.backward()
        if (i + 1) % accumulation_steps == 0:
            optimizer.step()
            optimizer.zero_grad()
    print(epoch, f"{criterion(model(X), y).item():.5f}")
