# Old sampler code converts masks and draws with `.type(...)`: the tensor class itself
# (`type(z.data)`, i.e. torch.Tensor) means "the default floating type".
import torch
from torch.autograd import Variable

torch.manual_seed(3)

# a Metropolis step on a 1-D standard normal, written the 2018 way
z = Variable(torch.randn(6, 1), requires_grad=True)
proposal = z.data + 0.5 * torch.randn(6, 1)
kind = type(z.data)
print(kind, kind is torch.Tensor)


def energy(q):
    return 0.5 * (q**2).sum(1)


ratio = torch.exp(energy(z.data) - energy(proposal))
draw = torch.rand(ratio.size()).type(kind)
accept = (ratio > draw).type(kind)
print(accept, accept.dtype)
z = z.data * (1 - accept.view(-1, 1)) + proposal * accept.view(-1, 1)
print(z.squeeze(1))

# integer counts and booleans become floats; a float tensor comes back as itself
counts = torch.tensor([3, 0, 5])
print(counts.type(torch.Tensor), counts.type(torch.Tensor).dtype)
same = z.type(torch.Tensor)
print(same is z)
wide = z.double()
print(wide.type(type(z)).dtype, wide.type("torch.FloatTensor").dtype)

# gradients flow through the conversion
w = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
loss = (w.type(torch.Tensor) ** 2).sum()
loss.backward()
print(loss, w.grad)

# classes that are not tensor types are refused
for cls in (int, float, torch.nn.Parameter):
    try:
        counts.type(cls)
    except ValueError as e:
        print("ValueError:", e)

# with a float64 default, torch.Tensor is float64
torch.set_default_dtype(torch.float64)
print(torch.tensor([True, False]).type(torch.Tensor).dtype)
