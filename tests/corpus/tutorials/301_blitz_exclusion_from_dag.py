import torch
from torch import nn, optim

torch.manual_seed(0)
x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)

a = x + y
print(f"Does `a` require gradients?: {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")

# freeze a small "pretrained" model and replace its head
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
for param in model.parameters():
    param.requires_grad = False
model[2] = nn.Linear(8, 2)
trainable = [n for n, p in model.named_parameters() if p.requires_grad]
print(trainable)
optimizer = optim.SGD(model[2].parameters(), lr=1e-2, momentum=0.9)
data = torch.rand(1, 4)
out = model(data)
out.sum().backward()
print(model[0].weight.grad, model[2].bias.grad)
optimizer.step()
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
