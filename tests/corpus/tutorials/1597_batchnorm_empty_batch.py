# A detection-style head runs BatchNorm on the proposals that survive a score filter;
# some images have none, and the (empty) output must still connect to the parameters.
import torch
import torch.nn as nn

torch.manual_seed(1)
head = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3), nn.ReLU())
feats = torch.randn(5, 4)
scores = torch.tensor([0.1, 0.2, 0.05, 0.3, 0.15])

for threshold in (0.12, 0.9):
    kept = feats[scores > threshold]
    out = head(kept)
    print(threshold, out.shape, out.grad_fn.name(), out.grad_fn.next_functions[0][0].name())
    head.zero_grad()
    out.sum().backward()
    print(head[1].weight.grad, head[1].bias.grad, head[1].num_batches_tracked)

bn = nn.BatchNorm1d(3, affine=False)
print(bn(torch.zeros(0, 3)), bn.running_mean)
x = torch.zeros(0, 3, requires_grad=True)
print(bn(x))
