# Second derivatives through activations applied in place to tensors the program never
# names (F.elu(x * 1.0, inplace=True), (W @ x).tanh_()), as a curvature check of a small
# model written in one line per layer.
import torch
import torch.nn.functional as F

torch.manual_seed(2)
x = torch.randn(4, dtype=torch.float64, requires_grad=True)
W = torch.randn(4, 4, dtype=torch.float64, requires_grad=True)


def energy(v):
    return (F.elu(v * 1.0, inplace=True) * (W @ v).tanh_()).sum()


(g,) = torch.autograd.grad(energy(x), x, create_graph=True)
print(g)
(hess_diag_sum,) = torch.autograd.grad(g.sum(), x, retain_graph=True)
print(hess_diag_sum)
(g**2).sum().backward()
print(x.grad)
print(W.grad)

(g2,) = torch.autograd.grad(F.elu(x * 1.0, inplace=True).sum(), x, create_graph=True)
print(torch.autograd.grad(g2.sum(), x)[0])
