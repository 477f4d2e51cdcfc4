import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.tensor([[1.0, 2.0], [0.5, -1.0]])
model(x).sum().backward()
print(model.weight.grad, model.bias.grad)

opt.zero_grad()
print(model.weight.grad, model.bias.grad)

model(x).sum().backward()
opt.zero_grad(set_to_none=False)
print(model.weight.grad, model.bias.grad)

model(x).sum().backward()
model.zero_grad()
print(model.weight.grad)

for p in model.parameters():
    p.grad = torch.ones_like(p)
model.zero_grad(set_to_none=False)
print([p.grad for p in model.parameters()])
