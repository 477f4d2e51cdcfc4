# Between real and complex tensors: polar form, complex(re, im), and the two views.
import math
import torch

r = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
theta = torch.tensor([0.0, math.pi / 3, -math.pi / 2], requires_grad=True)
z = torch.polar(r, theta)
print(z)
print(z.grad_fn.name() if hasattr(z.grad_fn, "name") else z.grad_fn)
loss = (z * z).real.sum() + z.imag.sum()
loss.backward()
print(loss)
print(r.grad, theta.grad)

pairs = torch.tensor([[1.0, -1.0], [0.5, 2.0]], requires_grad=True)
c = torch.view_as_complex(pairs)
print(c)
back = torch.view_as_real(c.exp())
print(back)
back.sum().backward()
print(pairs.grad)

re = torch.tensor([3.0, 4.0], requires_grad=True)
im = torch.tensor([4.0, -3.0], requires_grad=True)
m = torch.complex(re, im)
m.abs().sum().backward()
print(m, re.grad, im.grad)
