# x ** y with both tensors learnable: PyTorch's gradient formulas at a zero base and a zero
# exponent, and the second derivatives those formulas give (NaN included, as PyTorch's).
import torch

base = torch.tensor([0.0, 0.5, 2.0, 0.0], requires_grad=True)
expo = torch.tensor([0.0, 3.0, -1.0, 2.0], requires_grad=True)
val = base ** expo
print(val)
gb, ge = torch.autograd.grad(val.sum(), (base, expo), create_graph=True)
print("d/dbase:", gb)
print("d/dexpo:", ge)
hbb, hbe = torch.autograd.grad(gb.sum(), (base, expo), retain_graph=True)
heb, hee = torch.autograd.grad(ge.sum(), (base, expo))
print(hbb, hbe)
print(heb, hee)

# Repeated differentiation in the exponent at a zero base: 0, then NaN.
b = torch.tensor(0.0, requires_grad=True)
t = torch.tensor([0.0, 1.0], requires_grad=True)
r = torch.pow(b, t)
for order in range(1, 4):
    r, = torch.autograd.grad(r.sum(), t, create_graph=True)
    print(order, r)

# A scaled power in float32: the order of PyTorch's products decides the last digit.
u = torch.tensor([0.3, 1.7, 2.2, 5.0], requires_grad=True)
v = torch.tensor([1.3, 0.1, 2.9, -0.5], requires_grad=True)
(0.1 * u ** v).sum().backward()
print(u.grad.tolist())
print(v.grad.tolist())
