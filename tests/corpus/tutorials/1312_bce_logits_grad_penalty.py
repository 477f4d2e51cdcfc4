# Gradient penalty on a logistic-regression loss: the gradient of BCEWithLogitsLoss with
# respect to the logits, kept in the graph, then its squared norm backpropagated.
import torch
import torch.nn as nn

torch.manual_seed(5)
model = nn.Linear(3, 1)
features = torch.randn(6, 3)
labels = torch.tensor([[1.0], [0.0], [1.0], [1.0], [0.0], [0.0]])
criterion = nn.BCEWithLogitsLoss()
logits = model(features)
loss = criterion(logits, labels)
(g_logits,) = torch.autograd.grad(loss, logits, create_graph=True)
print(g_logits)
penalty = g_logits.pow(2).sum()
(loss + 10 * penalty).backward()
print(model.weight.grad)
print(model.bias.grad)

soft = torch.tensor([0.2, 0.9, 0.5], requires_grad=True)
z = torch.tensor([0.4, -1.1, 2.3], requires_grad=True)
l = nn.functional.binary_cross_entropy_with_logits(z, soft)
gz, gs = torch.autograd.grad(l, (z, soft), create_graph=True)
print(gz, gs)
