# Parameters kept in nn.ParameterList / nn.ParameterDict (a from-scratch layer stack, per-task
# scales): registration names, the reprs, plain tensors wrapped as Parameters, gradients and an
# optimiser step over them.
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.ws = nn.ParameterList([nn.Parameter(torch.ones(3)), torch.zeros(2, 2)])
        self.d = nn.ParameterDict(
            {"a": nn.Parameter(torch.ones(1)), "b": torch.zeros(2, dtype=torch.float64)}
        )

    def forward(self, x):
        for w in self.ws:
            x = x + w.sum()
        return x * self.d["a"]


m = M()
print(m)
print([n for n, _ in m.named_parameters()])
print(len(m.ws), type(m.ws[1]).__name__, m.ws[1].requires_grad, m.ws[-1].shape)
m.ws.append(nn.Parameter(torch.ones(1)))
print(m.ws)
print(list(m.d.keys()), m.d["b"])
y = m(torch.ones(2))
print(y)
y.sum().backward()
print(m.ws[0].grad, m.d["a"].grad)
pl = nn.ParameterList()
print(pl)
pl.extend([torch.ones(2)])
print(pl[0])
m.d["c"] = torch.ones(1)
print(m.d)
for k, v in m.d.items():
    print(k, v.shape)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
opt.step()
print(m.ws[0], "a" in m.d, len(m.d))
