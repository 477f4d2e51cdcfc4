# Cross-entropy of a linear classifier over 3 classes for a batch of 2, with class-index
# targets (PyTorch's default reduction='mean').
#   gradcli backward examples/softmax_classifier.py
#   gradcli backward examples/softmax_classifier.py --of logits --grad ones --wrt W
import torch
import torch.nn.functional as F

X = torch.tensor([[1.0, 2.0], [-0.5, 0.3]])
W = torch.tensor([[0.2, -0.1, 0.4], [0.3, 0.8, -0.5]], requires_grad=True)
targets = torch.tensor([2, 0])

logits = X @ W
probs = F.softmax(logits, dim=1)
loss = F.cross_entropy(logits, targets)
