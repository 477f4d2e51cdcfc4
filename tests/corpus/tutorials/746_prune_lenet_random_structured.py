# Random and structured pruning of a small LeNet (the generator's draws as PyTorch makes them:
# rand_like of the weight, rand of the channels), Ln-structured pruning along either dim,
# the state_dict's keys, a forward and backward through the pruned model.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.prune as prune

torch.manual_seed(42)


class LeNet(nn.Module):
    def __init__(self):
        super(LeNet, self).__init__()
        self.conv1 = nn.Conv2d(1, 3, 3)
        self.conv2 = nn.Conv2d(3, 4, 3)
        self.fc1 = nn.Linear(4 * 2 * 2, 10)
        self.fc2 = nn.Linear(10, 5)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.relu(self.conv2(x))
        x = x.view(-1, int(x.nelement() / x.shape[0]))
        x = F.relu(self.fc1(x))
        return self.fc2(x)


model = LeNet()
module = model.conv1
prune.random_unstructured(module, name="weight", amount=0.3)
print(list(module.named_buffers()))
print(module.weight)
prune.random_structured(module, name="weight", amount=1, dim=0)
print(module.weight_mask)
prune.random_structured(model.conv2, "weight", amount=0.5, dim=1)
print(model.conv2.weight_mask[:, :, 0, 0])
prune.ln_structured(model.fc1, name="weight", amount=0.3, n=1, dim=1)
print(model.fc1.weight_mask.sum(dim=0))
prune.ln_structured(model.fc1, name="weight", amount=2, n=float("inf"), dim=0)
print(model.fc1.weight_mask.sum(dim=1))
print(model.state_dict().keys())
x = torch.randn(2, 1, 10, 10)
y = model(x)
print(y)
y.sum().backward()
print(model.conv1.weight_orig.grad[0])
print(model.fc2.weight.grad)
for name, m in model.named_modules():
    if isinstance(m, torch.nn.Conv2d):
        prune.l1_unstructured(m, name="bias", amount=0.4)
print(dict(model.named_buffers()).keys())
