# A two-layer tanh network with a mean-squared-error loss (fixed weights).
#   gradcli backward examples/mlp.py --wrt W1 --wrt b1
#   gradcli backward examples/mlp.py --of h --grad onehot:0 --wrt W1
import torch
import torch.nn.functional as F

x = torch.tensor([0.5, -1.0, 2.0])
W1 = torch.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]], requires_grad=True)
b1 = torch.tensor([0.01, -0.02], requires_grad=True)
W2 = torch.tensor([[0.7, -0.8]], requires_grad=True)
b2 = torch.tensor([0.05], requires_grad=True)
target = torch.tensor([0.25])

h = torch.tanh(W1 @ x + b1)
y = torch.tanh(W2 @ h + b2)
loss = F.mse_loss(y, target)
