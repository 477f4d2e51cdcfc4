# A notebook's cells pasted into a script: `dir(...)` and `vars(...)` lines only displayed.
import torch
from torch import optim

dir(optim)
model = torch.nn.Linear(2, 1)
vars(model)
dir(model.weight)
opt = optim.SGD(model.parameters(), lr=0.1)
x = torch.tensor([[1.0, 2.0]])
loss = model(x).pow(2).sum()
loss.backward()
opt.step()
print(loss.item() > 0, model.weight.grad.shape)
