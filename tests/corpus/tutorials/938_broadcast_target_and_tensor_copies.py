# Two things tutorials do by accident: a regression target of shape [N] against predictions of
# shape [N, 1] (MSELoss broadcasts to [N, N] and PyTorch warns), and copying tensors with
# torch.tensor(t) (PyTorch warns to use t.detach().clone()). Also torch.as_tensor(t, dtype)
# keeps the graph, as t.to(dtype) does.
import torch
import torch.nn as nn

torch.manual_seed(7)
x = torch.linspace(-1, 1, 8).unsqueeze(1)
y = 2 * x.squeeze(1) + 0.3  # shape [8]: the accidental target

for target, name in ((y, "broadcast"), (y.unsqueeze(1), "matched")):
    torch.manual_seed(0)
    model = nn.Linear(1, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    crit = nn.MSELoss()
    for step in range(40):
        opt.zero_grad()
        loss = crit(model(x), target)
        loss.backward()
        opt.step()
    print(name, round(loss.item(), 5), model.weight.item(), model.bias.item())

print(nn.functional.l1_loss(model(x), y).item())

w = torch.tensor([1.5, -0.5], requires_grad=True)
copied = torch.tensor(w)
print(copied, copied.requires_grad, copied.grad_fn)
also = w.new_tensor(w)
print(also.requires_grad)

doubled = torch.as_tensor(w, dtype=torch.float64)
print(doubled, doubled.grad_fn.name())
(doubled ** 2).sum().backward()
print(w.grad)

# old names from 0.3-era tutorials: they still work, with PyTorch's deprecation warnings
from torch.autograd import Variable

p = nn.Parameter(torch.ones(3))
p.grad = torch.tensor([3.0, 0.0, 4.0])
print(torch.nn.utils.clip_grad_norm([p], max_norm=1.0), p.grad)
v = Variable(torch.ones(2), volatile=True)
print(v.requires_grad, (v * 2).requires_grad)
