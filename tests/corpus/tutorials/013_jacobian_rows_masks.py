import torch
from torch.autograd import Variable

x = Variable(torch.FloatTensor([[1, 2, 3]]), requires_grad=True)
z = x * x + 2 * x

# one backward pass per output element, with a one-hot mask as the gradient
for i in range(3):
    mask = torch.zeros(1, 3)
    mask[0, i] = 1
    z.backward(mask, retain_graph=True)
    print(x.grad.data)
    x.grad.data.zero_()

z.backward(torch.FloatTensor([[1, 1, 1]]))
print(x.grad)
