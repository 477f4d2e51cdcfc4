# Views taken before their tensor is changed in place under torch.no_grad(): PyTorch gives
# such a view a new grad_fn (AsStridedBackward0) the next time it is used, and refuses it for
# the outputs of unbind/split/chunk and of custom Functions.
import torch

w = torch.ones(2, 3, requires_grad=True)
flat = w.view(-1)
col = w[:, 1]
with torch.no_grad():
    w[0, 1] = 5.0
print(flat)
print(col.grad_fn.name())
(flat * torch.arange(6.0)).sum().backward()
print(w.grad)

# a transposed weight kept across optimizer steps
layer = torch.nn.Linear(3, 2, bias=False)
with torch.no_grad():
    layer.weight.copy_(torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]]))
weight_t = layer.weight.t()
opt = torch.optim.SGD(layer.parameters(), lr=0.05)
x = torch.tensor([[1.0, 2.0, -1.0], [0.5, -0.5, 1.0]])
for step in range(3):
    opt.zero_grad()
    loss = ((x @ weight_t) ** 2).mean()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6), weight_t.grad_fn.name())
print(weight_t)

# an intermediate result changed under no_grad
h = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = h.exp()
head = y[:2]
with torch.no_grad():
    y.mul_(2)
print(head, head.grad_fn.name())
try:
    head.sum().backward()
except RuntimeError as err:
    print(str(err)[:78])
z = h * 3
tail = z[1:]
with torch.no_grad():
    z.add_(1)
(tail * tail).sum().backward()
print(tail, h.grad)

# several views at once: PyTorch cannot regenerate them
m = torch.ones(2, 2, requires_grad=True)
rows = m.unbind(0)
parts = m.split(1, dim=1)
with torch.no_grad():
    m.add_(1)
for t in (rows[1], parts[0]):
    try:
        t.grad_fn
    except RuntimeError as err:
        print(str(err)[:72])
print(rows[0].detach())


class Flatten(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t.view(-1)

    @staticmethod
    def backward(ctx, g):
        return g.view(2, 2)


base = m * 1
flat2 = Flatten.apply(base)
with torch.no_grad():
    base.zero_()
try:
    flat2 * 2
except RuntimeError as err:
    print(str(err)[:60])
