import torch
import torch.nn as nn

torch.manual_seed(0)

# a linear model trained in bfloat16
model = nn.Linear(3, 1).to(torch.bfloat16)
print(model.weight.dtype, model.bias.dtype)
x = torch.randn(16, 3).to(torch.bfloat16)
true_w = torch.tensor([[1.5], [-2.0], [0.5]], dtype=torch.bfloat16)
y = x @ true_w + 0.3

opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(20):
    opt.zero_grad()
    pred = model(x)
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    opt.step()
    if epoch % 5 == 0:
        print(epoch, loss.item())
print(model.weight)
print(model.bias)
print(model.weight.grad)

# Adam on a bfloat16 parameter
p = torch.randn(4, dtype=torch.bfloat16, requires_grad=True)
adam = torch.optim.Adam([p], lr=0.05)
for _ in range(10):
    adam.zero_grad()
    l = ((p - 1.0) ** 2).sum()
    l.backward()
    adam.step()
print(p, l)
