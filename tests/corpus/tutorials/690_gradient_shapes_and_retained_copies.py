# What the upstream gradient of backward() must look like, and what .grad holds afterwards.
import torch
import torch.nn as nn

# A mean is 0-d, so the gradient handed to backward() must be 0-d too: a one-element
# vector is refused, even though it holds the same number.
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
loss = (w**2).mean()
try:
    loss.backward(gradient=torch.tensor([1.0]), retain_graph=True)
except RuntimeError as err:
    print("refused:", err)
loss.backward(gradient=torch.tensor(0.5))
print("w.grad:", w.grad)

# retain_grad() keeps a copy: changing one retained gradient leaves the others alone.
a = torch.tensor(3.0, requires_grad=True)
b = a * 2
c = b + 1
b.retain_grad()
c.retain_grad()
c.backward()
c.grad.mul_(10)
print("b.grad:", b.grad, "c.grad:", c.grad, "a.grad:", a.grad)
a.grad.add_(100)
print("after a.grad.add_:", b.grad, c.grad, a.grad)

# Using the output itself as the upstream gradient (out.backward(out)): the retained
# gradient is a plain tensor, with no history of its own.
torch.manual_seed(3)
layer = nn.Linear(3, 2)
out = layer(torch.ones(1, 3))
out.retain_grad()
out.backward(out)
print("out.grad:", out.grad)
print("requires grad?", out.grad.requires_grad, "bias.grad:", layer.bias.grad)

# torch.autograd.grad accepts the generator that parameters() returns.
net = nn.Linear(2, 1)
y = net(torch.tensor([[1.0, 2.0]])).sum()
gw, gb = torch.autograd.grad(y, net.parameters())
print("dy/dweight:", gw, "dy/dbias:", gb)
only_matrices = (p for p in net.parameters() if p.dim() > 1)
print(torch.autograd.grad((net(torch.ones(4, 2)) ** 2).sum(), only_matrices))
