# Softmax over the last dimension of float64 scores (attention weights, class probabilities),
# rows shorter and longer than a vector register, printed to the last digit.
import math

import torch
import torch.nn.functional as F

torch.manual_seed(8)
for width in (3, 4, 8, 11, 20, 64):
    scores = torch.randn(3, width, dtype=torch.float64) * 3
    probs = torch.softmax(scores, dim=-1)
    print(width, probs[2, :4].tolist(), probs.sum(dim=1).tolist())

q = torch.randn(2, 5, 6, dtype=torch.float64)
k = torch.randn(2, 5, 6, dtype=torch.float64)
weights = F.softmax(q @ k.transpose(1, 2) / math.sqrt(6), dim=2)
print(weights[1, 3].tolist())

masked = torch.tensor([[0.5, float("-inf"), 2.0, -1.0, 0.0]], dtype=torch.float64)
print(masked.softmax(-1).tolist())
