import torch
from torch.autograd import Variable

torch.manual_seed(0)

x = torch.Tensor([[0.1, 0.2, 0.3], [0.4, 0.6, 0.8]])
y_true = torch.Tensor([[0, 1]])

W = Variable(torch.randn(1, 3), requires_grad=True)
b = Variable(torch.randn(1, 2), requires_grad=True)

y_pred = torch.nn.Sigmoid()(torch.mm(W, torch.transpose(x, 0, 1)) + b)
losses = (y_true - y_pred) ** 2
avg_loss = losses.sum() / 2

avg_loss.backward()
print(W.grad)
print(b.grad)

W.grad.data.zero_()
b.grad.data.zero_()
y_pred = torch.nn.Sigmoid()(torch.mm(W, torch.transpose(x, 0, 1)) + b)
losses = (y_true - y_pred) ** 2
losses.backward(torch.FloatTensor([[0.5, 0.5]]))
print(W.grad)
print(b.grad)
