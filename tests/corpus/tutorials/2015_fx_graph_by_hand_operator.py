# Building an fx graph node by node, with operator.add as a target, then swapping it.
import torch
import torch.fx
import operator
graph = torch.fx.Graph()
x = graph.placeholder("x")
w = graph.placeholder("w")
y = graph.call_function(torch.relu, (x,))
z = graph.call_function(operator.add, (y, w))
s = graph.call_method("sum", (z,), {"dim": 0})
graph.output(s)
print(graph)
gm = torch.fx.GraphModule(torch.nn.Module(), graph)
print(gm)
print(gm(torch.tensor([[1.0, -2.0]]), torch.ones(1, 2)))
for n in gm.graph.nodes:
    if n.target == operator.add:
        n.target = operator.mul
        print("swapped", n.name)
gm.recompile()
print(gm.code)
print(gm(torch.tensor([[1.0, -2.0]]), torch.ones(1, 2)))
symbolic_traced: torch.fx.GraphModule = torch.fx.symbolic_trace(lambda a: a * 2)
print(symbolic_traced.code)
