# The pieces of torch.fx a transform pass uses: Tracer().trace, GraphModule(root, graph),
# print_readable, dead-code elimination and running a graph with Interpreter.
import torch
import torch.fx as fx


class Scaler(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
        self.norm = torch.nn.LayerNorm(2)

    def forward(self, x):
        spare = torch.exp(x)
        y = torch.add(x, x)
        return self.norm(y @ self.weight).abs()


def add_to_mul(m: torch.nn.Module) -> torch.nn.Module:
    graph = fx.Tracer().trace(m)
    for node in graph.nodes:
        if node.op == "call_function" and node.target == torch.add:
            node.target = torch.mul
    graph.lint()
    return fx.GraphModule(m, graph)


model = Scaler()
new = add_to_mul(model)
text = new.print_readable()
print(text.count("\n"), "lines")
for node in new.graph.nodes:
    print(node.format_node())
print(new.graph.eliminate_dead_code())
new.recompile()
print(new.code)
x = torch.tensor([[1.0, -2.0], [0.5, 3.0]])
print(fx.Interpreter(new).run(x))
print(new(x))
