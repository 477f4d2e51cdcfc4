# A hand-written linear layer: nn.Parameter weight and bias, reset_parameters with nn.init,
# an extra_repr for its printout, used inside another Module.
import math

import torch
import torch.nn as nn


class MyLinear(nn.Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        if bias:
            self.bias = nn.Parameter(torch.empty(out_features))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            bound = 1 / math.sqrt(self.in_features)
            nn.init.uniform_(self.bias, -bound, bound)

    def forward(self, x):
        out = x @ self.weight.t()
        if self.bias is not None:
            out = out + self.bias
        return out

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class TwoLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = MyLinear(3, 4)
        self.l2 = MyLinear(4, 2, bias=False)

    def forward(self, x):
        return self.l2(torch.relu(self.l1(x)))


torch.manual_seed(0)
net = TwoLayer()
print(net)
torch.manual_seed(0)
ref = nn.Linear(3, 4)
print(torch.equal(net.l1.weight, ref.weight), torch.equal(net.l1.bias, ref.bias))
x = torch.randn(2, 3)
print(net(x))
print([n for n, p in net.named_parameters()])
print(net.l2.bias)
