# The angle of a tiny complex number and its gradient, computed two ways: torch.angle on the
# complex leaf, and atan2 of its parts as two real leaves.
import torch

z = torch.tensor(5.6e-14 + 1e-13j, requires_grad=True)
print(z)
theta = torch.angle(z)
print(theta)
theta.backward()
print(z.grad)

x = torch.tensor(5.6e-14, requires_grad=True)
y = torch.tensor(1e-13, requires_grad=True)
phi = torch.atan2(y, x)
phi.backward()
print(phi, x.grad, y.grad)
print(torch.allclose(torch.complex(x.grad, y.grad), z.grad))

v = torch.tensor([1 + 1j, -2 + 0.5j, 3 - 4j], dtype=torch.complex128, requires_grad=True)
r = v.abs()
t = v.angle()
loss = (r * t).sum()
loss.backward()
print(r, t, loss, sep="\n")
print(v.grad)
