# A low-pass filter tap built from sinc, and the curvature of its response: the first and
# second derivatives of torch.sinc through autograd, at 0 (the removable singularity) and
# away from it, with create_graph=True as a physics-informed loss would use them.
import torch

cutoff = torch.tensor([0.0, 0.25, -0.75, 1.5, 2.0], requires_grad=True)
taps = torch.sinc(cutoff)
print("taps:", taps)

(slope,) = torch.autograd.grad(taps.sum(), cutoff, create_graph=True)
print("slope:", slope)
print("slope grad_fn:", type(slope.grad_fn).__name__)

(curv,) = torch.autograd.grad(slope.sum(), cutoff)
print("curvature:", curv)
print("finite curvature everywhere?", bool(torch.isfinite(curv).all()))

# in float64, one point at a time
for v in [0.0, 0.125, 3.0]:
    t = torch.tensor(v, dtype=torch.float64, requires_grad=True)
    (d1,) = torch.autograd.grad(torch.sinc(t), t, create_graph=True)
    (d2,) = torch.autograd.grad(d1, t)
    print(f"x={v}: d1={d1.item():.6f} d2={d2.item():.6f}")

# the same curvature through backward() twice, accumulating into .grad
x = torch.tensor([0.5, 0.0], requires_grad=True)
y = torch.sinc(x).sum()
y.backward(create_graph=True)
g = x.grad.clone()
x.grad = None
g.sum().backward()
print("first:", g.detach(), "second:", x.grad)
