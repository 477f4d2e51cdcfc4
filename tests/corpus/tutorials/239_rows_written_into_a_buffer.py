# Predictions written row by row into a preallocated tensor, then one loss over all of them:
# each assignment is recorded (CopySlices) and the gradient flows back through every row.
# A large buffer: the recorded assignments keep no copy of it per row (as PyTorch's).
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(50, 32), nn.Tanh(), nn.Linear(32, 800))
inputs = torch.randn(500, 50)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    preds = torch.zeros(500, 800)
    for i in range(len(inputs)):
        preds[i] = model(inputs[i])
    loss = preds.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, loss.item(), preds.grad_fn.name(), model[0].weight.grad.norm().item())
print(preds[::100, :3])
