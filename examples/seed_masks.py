# The first seed's walkthrough: a Jacobian row is a backward pass whose upstream gradient
# is a one-hot mask. Runs as written in the seed (PyTorch 0.4 style, Variable and all).
#   gradcli run examples/seed_masks.py
#   gradcli backward examples/seed_masks.py --of z --grad 1,0,0,0
import torch
from torch.autograd import Variable

x = Variable(torch.FloatTensor([[1, 2, 3, 4]]), requires_grad=True)
z = 2 * x
loss = z.sum(dim=1)

# do backward for first element of z
z.backward(torch.FloatTensor([[1, 0, 0, 0]]), retain_graph=True)
print(x.grad.data)
x.grad.data.zero_()  # remove gradient in x.grad, or it will be accumulated

# do backward for second element of z
z.backward(torch.FloatTensor([[0, 1, 0, 0]]), retain_graph=True)
print(x.grad.data)
x.grad.data.zero_()

# do backward for all elements of z, with weight equal to the derivative of
# loss w.r.t z_1, z_2, z_3 and z_4
z.backward(torch.FloatTensor([[1, 1, 1, 1]]), retain_graph=True)
print(x.grad.data)
x.grad.data.zero_()

# or we can directly backprop using loss
loss.backward()  # equivalent to loss.backward(torch.FloatTensor([1.0]))
print(x.grad.data)
