import torch
import torch.nn as nn

loss_fn = nn.MSELoss()
pred = torch.tensor([2.5, 0.0, 2.0, 8.0], requires_grad=True)
target = torch.tensor([3.0, -0.5, 2.0, 7.0])

loss = loss_fn(pred, target)
print(loss)
loss.backward()
print(pred.grad)

sum_loss = nn.MSELoss(reduction='sum')(pred, target)
print(sum_loss)
none_loss = nn.MSELoss(reduction='none')(pred, target)
print(none_loss)
