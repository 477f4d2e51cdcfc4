# A small MLP trained in double precision (set_default_dtype), printing the loss with all
# its digits at a few steps, as scripts that check convergence do.
import torch
import torch.nn as nn

torch.manual_seed(21)
torch.set_default_dtype(torch.float64)

x = torch.randn(64, 40)
y = torch.sin(x[:, :4].sum(dim=1, keepdim=True)).repeat(1, 8)

model = nn.Sequential(nn.Linear(40, 16), nn.ReLU(), nn.Linear(16, 8))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for step in range(25):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    if step % 6 == 0:
        print(step, loss.item())

print(model[0].weight.grad[0, :4].tolist())
print(model[2].bias.tolist()[:4])
