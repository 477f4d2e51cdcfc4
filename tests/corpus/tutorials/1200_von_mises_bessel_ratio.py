# Fitting the concentration of a von Mises distribution: its log-likelihood needs
# log I0(kappa), and its gradient the Bessel ratio I1(kappa) / I0(kappa). The scaled
# functions i0e / i1e keep large kappa from overflowing.
import torch

torch.manual_seed(3)
angles = torch.randn(40) * 0.6 + 0.3
mu = torch.tensor(0.3)
kappa = torch.tensor([0.5, 2.0, 4.797245979309082, 9.0], requires_grad=True)

r = torch.cos(angles - mu).mean()
# log I0(k) = log(i0e(k)) + k
log_i0 = torch.log(torch.special.i0e(kappa)) + kappa
nll = -(kappa * r - log_i0)
nll.sum().backward()
print("mean resultant:", r)
print("nll:", nll)
print("d nll / d kappa:", kappa.grad)
print("A(kappa) - r:  ", torch.special.i1e(kappa) / torch.special.i0e(kappa) - r)

# the unscaled functions and their own gradients, in float32 and float64
for dtype in (torch.float32, torch.float64):
    k = torch.tensor([-4.797245979309082, -1.25, 0.0, 3.5, 8.0, 11.0], dtype=dtype,
                     requires_grad=True)
    y = torch.special.i1(k)
    print(dtype, y)
    print("  digits:", [f"{v:.9g}" for v in y.tolist()])
    y.backward(torch.ones_like(y))
    print("  i1'  :", [f"{v:.9g}" for v in k.grad.tolist()])
    k.grad = None
    z = torch.special.i1e(k)
    z.sum().backward()
    print("  i1e  :", [f"{v:.9g}" for v in z.tolist()])
    print("  i1e' :", [f"{v:.9g}" for v in k.grad.tolist()])
    print("  i0e  :", [f"{v:.9g}" for v in torch.special.i0e(k.detach()).tolist()])
    k.grad = None
    torch.i0(k).sum().backward()
    print("  i0'  :", k.grad, k.grad.equal(torch.special.i1(k.detach())))

# second derivative through the i1 rule
k = torch.tensor([1.5, 6.0], dtype=torch.float64, requires_grad=True)
(g,) = torch.autograd.grad(torch.special.i1(k).sum(), k, create_graph=True)
(h,) = torch.autograd.grad(g.sum(), k)
print(g, h)

# half precision: the values are computed, the i1 gradient is not (PyTorch has no half kernel)
kh = torch.tensor([0.5, 2.0], dtype=torch.float16, requires_grad=True)
print(torch.special.i1(kh), torch.i0(kh))
try:
    torch.special.i1e(kh).sum().backward()
except NotImplementedError as e:
    print("NotImplementedError:", e)
