# A debugging notebook: the mistakes people make with torch's functions and modules, and the
# exact errors PyTorch answers with (caught and printed, as a tutorial shows them).
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 4)
        self.fc2 = nn.Linear(4, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


torch.manual_seed(0)
net = Net()
x = torch.randn(2, 3)

mistakes = [
    lambda: torch.relu(x, inplace=True),
    lambda: torch.sigmoid(x, inplace=True),
    lambda: x.relu(inplace=True),
    lambda: F.softmax(x, axis=1),
    lambda: torch.add(x, x, beta=2),
    lambda: torch.ones(2, require_grad=True),
    lambda: F.gelu(x, approx="tanh"),
    lambda: torch.tanh(x, foo=1),
    lambda: net.fc3(x),
]
for mistake in mistakes:
    try:
        mistake()
    except (TypeError, AttributeError) as e:
        print(f"{type(e).__name__}: {e}")

# numpy's names work for torch's own functions, not for torch.nn.functional's Python ones
print(torch.sum(x, axis=1), torch.softmax(x, dim=1).sum(dim=1))
print(F.softmax(x, dim=1).sum(1), torch.relu_(x.clone()).min())

# too few samples for an unbiased variance: PyTorch warns and gives nan
var, mean = torch.var_mean(torch.tensor([3.0]))
std, mean = torch.std_mean(torch.tensor([[1.0, 2.0]]), dim=0)
print(var, mean, std)

# the functions' other names are objects of their own
print(torch.subtract is torch.sub, torch.clip is torch.clamp, torch.subtract(x, 1).shape)
print(torch.subtract.__name__, torch.multiply(x, 2).shape, torch.divide(x, 2).shape)

# a module's hook tables are keyed by the handles' ids
h1 = net.register_forward_hook(lambda m, i, o: None)
h2 = net.fc1.register_forward_pre_hook(lambda m, i: None)
h3 = net.register_forward_hook(lambda m, i, o: None)
print(list(net._forward_hooks.keys()), list(net.fc1._forward_pre_hooks.keys()))
print(h1.id, h2.id, h3.id)
h1.remove()
print(list(net._forward_hooks.keys()), net(x).shape)
