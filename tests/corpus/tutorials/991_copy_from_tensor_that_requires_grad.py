# copy_ from a tensor that requires grad: the copy takes the source's values (once), and the
# gradient flows to the source through CopyBackwards while the overwritten values get none.
# Also a tensor without grad changed in place by one with grad (y.mul_(w)): PyTorch keeps
# y's old value for w's gradient.
import torch

w = torch.tensor([0.3, -0.8, 1.2], requires_grad=True)

buf = torch.ones(3)
buf.copy_(w)
print(buf)
buf.sum().backward()
print(w.grad)

w.grad = None
y = w * 2
y.copy_(w * 3)
print(y)
print(torch.autograd.grad((y**2).sum(), w))

m = torch.stack([w * 2, w - 1, w**2])
m[:, 0].copy_(w * 3)
print(m)
print(torch.autograd.grad((m**2).sum(), w))

z = torch.zeros(2, 3)
z[1].copy_(-w)
z[0].copy_(torch.tensor([-0.0, 0.0, -1.0]))
print(z)
print(torch.autograd.grad((z * z).sum(), w))

scale = torch.ones(3) * 2
scale.mul_(w)
print(scale)
print(torch.autograd.grad((scale**2).sum(), w))

rows = torch.ones(2, 3) * 2
rows[1].div_(w + 3)
rows[0].pow_(w)
print(rows)
print(torch.autograd.grad(rows.sum(), w))
