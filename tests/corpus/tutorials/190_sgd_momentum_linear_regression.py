# Linear regression with nn.Linear, MSELoss and SGD with momentum; StepLR halves the rate.
import torch
import torch.nn as nn

torch.manual_seed(0)
true_w = torch.tensor([[2.0, -3.0, 0.5]])
x = torch.randn(64, 3)
y = x @ true_w.T + 1.0 + 0.1 * torch.randn(64, 1)

model = nn.Linear(3, 1)
loss_fn = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=20, gamma=0.5)
for epoch in range(60):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    scheduler.step()
    if epoch % 10 == 9:
        print(epoch + 1, round(loss.item(), 4), scheduler.get_last_lr())
w = model.weight.detach()
print(round(w[0, 0].item(), 3), round(w[0, 1].item(), 3), round(w[0, 2].item(), 3))
print(round(model.bias.item(), 3))
print(optimizer)
