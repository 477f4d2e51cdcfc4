import torch
from torch.autograd import Variable

x = Variable(torch.ones(2, 2), requires_grad=True)
print(x)
y = x + 2
print(y)
z = y * y * 3
out = z.mean()
print(z, out)
out.backward()
print(x.grad)
print(x.grad.data)
print(type(x).__name__, isinstance(x, torch.Tensor))

x = Variable(torch.FloatTensor([2.0]), requires_grad=True)
y = x ** 3
y.backward()
print(x.grad.data[0])
print(x.data.numpy(), x.grad.data.numpy())
v = Variable(torch.randn(3)).data
print(v.requires_grad)
