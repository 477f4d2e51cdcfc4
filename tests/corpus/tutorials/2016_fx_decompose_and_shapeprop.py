# A decomposition pass (relu rewritten with Proxy arithmetic on a new graph) and ShapeProp.
import torch
import torch.fx as fx
import torch.nn.functional as F
from torch.fx.passes.shape_prop import ShapeProp


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 3)

    def forward(self, x):
        return F.relu(self.lin(x)) + torch.neg(x).sum()


def relu_decomposition(x):
    return (x > 0) * x


rules = {F.relu: relu_decomposition}


def decompose(model):
    graph = fx.Tracer().trace(model)
    new_graph = fx.Graph()
    env = {}
    tracer = fx.proxy.GraphAppendingTracer(new_graph)
    for node in graph.nodes:
        if node.op == "call_function" and node.target in rules:
            proxy_args = map(lambda a: fx.Proxy(env[a.name], tracer) if isinstance(a, fx.Node) else a, node.args)
            out = rules[node.target](*proxy_args)
            env[node.name] = out.node
        else:
            new_node = new_graph.node_copy(node, lambda a: env[a.name])
            env[node.name] = new_node
    return fx.GraphModule(model, new_graph)


torch.manual_seed(0)
m = M()
d = decompose(m)
print(d.graph)
print(d.code)
x = torch.randn(2, 4)
print(torch.allclose(d(x), m(x)))
gm = fx.symbolic_trace(m)
ShapeProp(gm).propagate(x)
for node in gm.graph.nodes:
    meta = node.meta.get("tensor_meta")
    if meta is not None:
        print(node.name, meta.dtype, meta.shape, meta.requires_grad, meta.stride)
gm.print_readable()
print(list(gm.graph.nodes)[1].meta["tensor_meta"])
