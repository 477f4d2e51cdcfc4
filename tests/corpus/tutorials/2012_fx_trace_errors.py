# What symbolic tracing cannot follow: Python decisions on traced values.
import torch
import torch.fx


class Branchy(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x


class Loopy(torch.nn.Module):
    def forward(self, x):
        total = 0
        for row in x:
            total = total + row
        return total


class Sized(torch.nn.Module):
    def forward(self, x):
        return x.view(len(x), -1)


for cls in (Branchy, Loopy, Sized):
    try:
        torch.fx.symbolic_trace(cls())
    except Exception as e:
        print(cls.__name__, type(e).__name__, "-", e)


class Shapes(torch.nn.Module):
    def forward(self, x):
        return x.view(x.size(0), -1).T @ x.flatten(1)


gm = torch.fx.symbolic_trace(Shapes())
print(gm.code)
print(gm(torch.arange(6.0).reshape(2, 3)))
g = gm.graph
first = next(iter(g.nodes))
try:
    g.erase_node(first)
except RuntimeError as e:
    print(e)

# A traced value formatted into a string is its text, not a node.
print(torch.fx.symbolic_trace(lambda x: "value: %s" % x).code)
