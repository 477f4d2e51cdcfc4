import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))

for p in model[0].parameters():
    p.requires_grad_(False)

trainable = [n for n, p in model.named_parameters() if p.requires_grad]
print(trainable)

x = torch.tensor([[1.0, -1.0], [0.5, 2.0]])
loss = model(x).pow(2).mean()
loss.backward()
for name, p in model.named_parameters():
    print(name, None if p.grad is None else p.grad.shape)

opt = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.1)
opt.step()
print(model[2].bias)
