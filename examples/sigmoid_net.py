# The second seed: a one-layer sigmoid network, y_pred = sigmoid(W x^T + b).
# The seed draws W and b with torch.randn; here they are fixed to values that reproduce the
# seed's printed numbers:
#   W.grad = 1e-2 * [[-2.6718, -3.2673, -3.8628]]      b.grad = [[0.1481, -0.1038]]
# Fixes to the seed's code: its y_pred line lost `torch.matmul(W` in transcription
# (`Sigmoid()(, torch.transpose(...))`), and two lines miss a closing parenthesis.
#   gradcli run examples/sigmoid_net.py
#   gradcli backward examples/sigmoid_net.py --of losses --grad 0.5,0.5 --wrt W --wrt b
import torch
from torch.autograd import Variable

x = torch.Tensor([[0.1, 0.2, 0.3], [0.4, 0.6, 0.8]])
y_true = torch.Tensor([[0, 1]])

W = Variable(torch.Tensor([[0.1, 0.2, 0.3]]), requires_grad=True)
b = Variable(torch.Tensor([[0.51651, -0.09714]]), requires_grad=True)

y_pred = torch.nn.Sigmoid()(torch.matmul(W, torch.transpose(x, 0, 1)) + b)
losses = (y_true - y_pred) ** 2
avg_loss = losses.sum() / 2

avg_loss.backward(retain_graph=True)
print(W.grad)  # 1e-2 * [[-2.6718, -3.2673, -3.8628]]
print(b.grad)  # [[0.1481, -0.1038]]

# The same gradients from the vector `losses` with the upstream gradient
# d(avg_loss)/d(losses) = [0.5, 0.5] (shaped like losses: [[0.5, 0.5]]).
W.grad.zero_()
b.grad.zero_()
losses.backward(torch.FloatTensor([[0.5, 0.5]]), retain_graph=True)
print(W.grad)
print(b.grad)

# Jacobian rows of d(losses)/dW (times 0.5) by masked backward passes, one row per loss.
# (The seed lists loss^2's row first; here row i belongs to losses[0, i].)
jacobian = torch.zeros((x.shape[0], W.shape[1]))
W.grad.zero_()
losses.backward(torch.FloatTensor([[0.5, 0]]), retain_graph=True)
jacobian[0, :] = W.grad[0]
W.grad.zero_()
losses.backward(torch.FloatTensor([[0, 0.5]]), retain_graph=True)
jacobian[1, :] = W.grad[0]
print(jacobian)  # 1e-2 * [[1.4808, 2.9616, 4.4424], [-4.1526, -6.2289, -8.3053]]
