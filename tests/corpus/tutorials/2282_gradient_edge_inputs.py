# Gradients with respect to a point inside the graph, named by its gradient edge: the
# gradient flowing into an intermediate's grad_fn (or a leaf's AccumulateGrad), taken with
# autograd.grad and backward(inputs=...), beside the same gradients taken through the tensors.
import torch
from torch.autograd.graph import GradientEdge, get_gradient_edge

torch.manual_seed(0)
w = torch.randn(3, 2, dtype=torch.float64, requires_grad=True)
x = torch.randn(4, 3, dtype=torch.float64)
hidden = x @ w
act = torch.tanh(hidden)
loss = (act**2).mean()

edge = get_gradient_edge(hidden)
print(type(edge).__name__, isinstance(edge, GradientEdge), isinstance(edge, tuple))
print(edge.node.name(), edge.output_nr, edge.ownership_token)
node, nr, token = edge
print(node.name(), nr, token)

(g_edge,) = torch.autograd.grad(loss, edge, retain_graph=True)
(g_tensor,) = torch.autograd.grad(loss, hidden, retain_graph=True)
print(torch.equal(g_edge, g_tensor))
print(g_edge)

# a leaf's edge is its AccumulateGrad node
leaf_edge = get_gradient_edge(w)
print(leaf_edge.node.name(), leaf_edge.output_nr)
loss.backward(inputs=[leaf_edge], retain_graph=True)
print(w.grad)

# pieces of a split: which output of SplitBackward0 each is
left, right = hidden.split([1, 1], dim=1)
e_right = get_gradient_edge(right)
print(e_right.node.name(), e_right.output_nr)
mixed = (left * 3 + right.exp()).sum()
print(torch.autograd.grad(mixed, {"right": e_right, "w": get_gradient_edge(w)}, retain_graph=True))

# an edge as the output: the pass starts at its node with the gradient given
start = get_gradient_edge(hidden)
print(
    torch.autograd.grad(
        start, w, grad_outputs=torch.ones(4, 2, dtype=torch.float64), retain_graph=True
    )
)
w.grad = None
torch.autograd.backward([start], grad_tensors=[torch.full((4, 2), 0.5, dtype=torch.float64)])
print(w.grad)

try:
    get_gradient_edge(x)
except RuntimeError as e:
    print(e)
