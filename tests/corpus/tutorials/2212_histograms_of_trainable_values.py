# Histograms and weighted bin counts of tensors that are part of a graph (a layer's weights,
# per-sample losses): PyTorch keeps the results in the graph under a NotImplemented node, and
# a backward through them fails. Detach for monitoring; use a soft assignment to train.
import torch

torch.manual_seed(0)
layer = torch.nn.Linear(4, 3)
w = layer.weight

hist, edges = torch.histogram(w.detach(), bins=4)
print(hist, edges)
counts = torch.histogram(w, bins=4)
print(counts.hist)
print(counts.hist.grad_fn.name(), counts.hist.grad_fn is counts.bin_edges.grad_fn)
try:
    counts.hist.sum().backward()
except RuntimeError as err:
    print("histogram:", err)

# per-class sums of per-sample losses
losses = torch.tensor([0.5, 1.25, 0.75, 2.0, 0.25], requires_grad=True)
labels = torch.tensor([0, 2, 2, 1, 0])
per_class = torch.bincount(labels, weights=losses, minlength=4)
print(per_class)
try:
    torch.autograd.grad(per_class.sum(), losses)
except RuntimeError as err:
    print("bincount:", err)
# the differentiable way: scatter_add (index_add) into the classes
summed = torch.zeros(4).index_add(0, labels, losses)
summed.pow(2).sum().backward()
print(summed, losses.grad)

# a 2-D histogram of points, and with explicit edges (returned as given)
pts = torch.tensor([[0.1, 0.2], [0.4, 0.9], [0.8, 0.3], [0.6, 0.6]], dtype=torch.float64,
                   requires_grad=True)
h2 = torch.histogramdd(pts, bins=[2, 3])
print(h2.hist)
print(h2.bin_edges)
print(h2.hist.grad_fn is h2.bin_edges[0].grad_fn, h2.bin_edges[0].grad_fn is h2.bin_edges[1].grad_fn)
for t in (h2.hist, h2.bin_edges[1]):
    try:
        t.sum().backward()
    except RuntimeError as err:
        print(err)
xe = torch.tensor([0.0, 0.5, 1.0], dtype=torch.float64)
ye = torch.tensor([0.0, 1.0], dtype=torch.float64)
h3 = torch.histogramdd(pts, bins=[xe, ye], density=True)
print(h3.hist, h3.bin_edges[0] is xe)
with torch.no_grad():
    print(torch.histogramdd(pts, bins=2).hist.requires_grad)
