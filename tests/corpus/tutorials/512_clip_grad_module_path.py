# Gradient clipping reached through its own module, torch.nn.utils.clip_grad, as some notebooks
# write it; passing the model instead of model.parameters() is a TypeError.
import torch
from torch import nn
import torch.nn.utils.clip_grad as cg
from torch.nn.utils.clip_grad import clip_grad_value_

torch.manual_seed(5)
net = nn.Linear(2, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.5)
data = [(0.5, 2.0), (1.5, 4.0), (-1.0, -1.0)]
for a, b in data:
    x = torch.tensor([[a, 1.0 - a]])
    t = torch.tensor([[b]])
    opt.zero_grad()
    loss = nn.functional.mse_loss(net(x), t)
    loss.backward()
    total = nn.utils.clip_grad.clip_grad_norm_(net.parameters(), max_norm=0.5, norm_type=2)
    clip_grad_value_(net.parameters(), clip_value=0.2)
    print(round(loss.item(), 5), total, net.weight.grad, net.bias.grad)
    opt.step()
print(dict(net.state_dict()))
print(cg.clip_grad_norm_([torch.tensor([3.0, 4.0], requires_grad=True)], 1.0))
try:
    cg.clip_grad_norm_(net, 1.0)
except TypeError as e:
    print("TypeError:", e)
