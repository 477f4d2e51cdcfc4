# An evaluation-mode RReLU inside a gradient-penalty loss: the input gradient taken with
# create_graph=True is PyTorch's own rrelu backward node, differentiable again (its
# derivative in the input is zero, in the incoming gradient the same slopes).
import torch
import torch.nn as nn

act = nn.RReLU(lower=0.1, upper=0.4)
act.eval()
for dtype in (torch.float32, torch.float64):
    inp = torch.tensor([-2.0, -0.5, 0.0, 0.75, 1.5], dtype=dtype, requires_grad=True)
    out = act(inp)
    print(out)
    slope = torch.autograd.grad(out.sum(), inp, create_graph=True)[0]
    print(slope)
    print(slope.requires_grad, slope.grad_fn.name())
    curvature = torch.autograd.grad(slope.sum(), inp)[0]
    print(curvature)
    weights = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0], dtype=dtype, requires_grad=True)
    tilted = torch.autograd.grad(out, inp, weights, create_graph=True)[0]
    print(tilted)
    print(torch.autograd.grad(tilted.sum(), weights)[0])
