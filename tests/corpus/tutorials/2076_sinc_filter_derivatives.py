# A sinc interpolation kernel and its derivatives (smoothness penalties on a band-limited
# signal): PyTorch's sinc_backward is grad * (pi x cos(pi x) - sin(pi x)) / (pi x^2), the
# product with grad taken before the division.
import torch

torch.manual_seed(5)
for dtype in (torch.float64, torch.float32):
    t = torch.tensor([-1.7, -0.2, 0.6, 2.3], dtype=dtype, requires_grad=True)
    k = torch.sinc(t)
    dk = torch.autograd.grad(k.sum(), t, create_graph=True)[0]
    d2k = torch.autograd.grad(dk.sum(), t, create_graph=True)[0]
    d3k = torch.autograd.grad(d2k.sum(), t)[0]
    print(dk.tolist())
    print(d2k.tolist())
    print(d3k.tolist())
    many = (torch.randn(64, dtype=dtype) * 4).requires_grad_()
    slope = torch.autograd.grad(torch.sinc(many).sum(), many)[0]
    print(slope[:6].tolist())
