# How nn.ParameterList and nn.ParameterDict print: one parameter stays on the container's
# line, more go below it, in a model too.
import torch
import torch.nn as nn


class Mixture(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.means = nn.ParameterList([nn.Parameter(torch.zeros(2)) for _ in range(k)])
        self.scales = nn.ParameterDict({"global": nn.Parameter(torch.ones(1))})
        self.head = nn.Linear(2, 1)

    def forward(self, x):
        return self.head(x - self.means[0]) * self.scales["global"]


print(Mixture(1))
print(Mixture(3))
print(nn.ParameterList([nn.Parameter(torch.ones(3, dtype=torch.float64))]))
print(nn.ParameterList())
pd = nn.ParameterDict({"a": nn.Parameter(torch.ones(2)), "b": nn.Parameter(torch.ones(2, 2))})
print(pd)
pd["c"] = nn.Parameter(torch.zeros(4, dtype=torch.float64))
print(pd)
print(nn.ParameterDict({"only": nn.Parameter(torch.ones(1))}))
m = Mixture(2)
print(m(torch.ones(1, 2)).shape, len(list(m.parameters())))
