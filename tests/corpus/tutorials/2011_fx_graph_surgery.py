# Rewriting a traced graph: swap an op, insert a new node, drop a dead one,
# then check the rewritten module still trains (its gradients match autograd's).
import torch
import torch.fx as fx


def block(x, y):
    z = torch.add(x, y)
    w = z * 3 - y
    unused = w.exp()
    return torch.relu(w).sum(dim=1)


gm = fx.symbolic_trace(block)
print(gm.code)

graph = gm.graph
for node in graph.nodes:
    if node.op == "call_function" and node.target == torch.relu:
        node.target = torch.tanh
    if node.op == "call_method" and node.target == "exp":
        graph.erase_node(node)
for node in graph.nodes:
    if node.op == "call_function" and node.target == torch.tanh:
        with graph.inserting_after(node):
            doubled = graph.call_function(torch.mul, args=(node, 2.0))
        node.replace_all_uses_with(doubled)
        doubled.args = (node, 2.0)
graph.lint()
gm.recompile()
print(gm.graph)
print(gm.code)

x = torch.tensor([[0.1, -0.4], [0.3, 0.2]], dtype=torch.float64, requires_grad=True)
y = torch.tensor([[0.5, 0.0], [-0.2, 0.7]], dtype=torch.float64)
out = gm(x, y)
print(out)
out.sum().backward()
print(x.grad)
ref = x.detach().clone().requires_grad_()
(2 * torch.tanh(3 * (ref + y) - y)).sum(dim=1).sum().backward()
print(torch.allclose(x.grad, ref.grad))
print(len(list(graph.nodes)), [n.name for n in graph.nodes])
