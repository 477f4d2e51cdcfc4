# A classifier whose last Linear and cross entropy are fused into one criterion:
# nn.LinearCrossEntropyLoss owns the projection, F.linear_cross_entropy takes it as an argument.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(7)
body = nn.Sequential(nn.Linear(6, 5), nn.Tanh())
head = nn.LinearCrossEntropyLoss(5, 4, bias=True, label_smoothing=0.05)
print(head)
print([name for name, _ in head.named_parameters()])

opt = torch.optim.Adam(list(body.parameters()) + list(head.parameters()), lr=0.05)
x = torch.randn(10, 6)
y = torch.randint(0, 4, (10,))
for step in range(4):
    opt.zero_grad()
    loss = head(body(x), y)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}", loss.grad_fn.name())

# the same loss spelled out with an explicit weight, in float64
feats = torch.randn(3, 5, dtype=torch.float64, requires_grad=True)
w = torch.randn(4, 5, dtype=torch.float64, requires_grad=True)
target = torch.tensor([3, 0, -100])
fused = F.linear_cross_entropy(feats, w, target, reduction="none")
plain = F.cross_entropy(feats @ w.t(), target, reduction="none")
print(fused)
print(torch.equal(fused, plain))
fused.sum().backward()
print(feats.grad)
print(w.grad)

# a K-dimensional head: one score map per class, index and probability targets
torch.manual_seed(3)
seg = nn.LinearCrossEntropyLoss(3, 2, out_features=(2, 2), dtype=torch.float64)
print(seg.linear.weight.shape)
z = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
print(seg(z, torch.randint(0, 2, (4, 2, 2))))
soft = torch.rand(4, 2, 2, 2, dtype=torch.float64).softmax(dim=1)
out = seg(z, soft)
out.backward()
print(out, z.grad.sum(dim=0))

try:
    F.linear_cross_entropy(z, torch.randn(2, 4, dtype=torch.float64), torch.tensor([0, 1, 1, 0]))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    F.linear_cross_entropy(z, torch.randn(2, 3, dtype=torch.float64), soft[:, :, 0, 0], ignore_index=0)
except RuntimeError as e:
    print("RuntimeError:", e)
