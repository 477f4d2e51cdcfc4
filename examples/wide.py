# A Jacobian wider and taller than a terminal: a 1-D convolution of 40 inputs, 36 outputs.
#   gradcli jacobian examples/wide.py          a table: whole columns and rows elided, counted
#   gradcli jacobian examples/wide.py --heat   the whole matrix at a glance, by sign and size
import torch
import torch.nn.functional as F

x = torch.linspace(-1, 1, 40, requires_grad=True)
k = torch.tensor([[[0.5, 1.0, -2.0, 1.0, 0.25]]])
y = torch.tanh(F.conv1d(x.view(1, 1, 40), k)).flatten()
